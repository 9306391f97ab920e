// Bounded heap growth for work that makes many large strings one after another (an
// import of fat rows: each line, its parsed values, the row as written are strings of up
// to the 8 MiB line cap). V8 moves a string over 128 KiB that survives one young-generation
// collection whole into the old generation, and lets the old generation grow to about four
// times its live size before a full collection: garbage of that kind grew the server by
// 130 MiB and more for a file whose live rows are a few MiB (docs/benchmarks/import.md).
// A HeapGuard counts the bytes its work has handled and, every CHECK_BYTES, looks at the
// heap: grown past its budget since the last look, it asks V8 for a full collection, so
// the heap stays within the budget of where it started, whatever the file's size.
// docs/operations.md, "Sandbox files and drops: caps and memory", says so for operators.
import v8 from 'node:v8';
import vm from 'node:vm';

const MiB = 1024 * 1024;
/** How often (bytes handled) the heap is looked at: reading its size costs ~1 µs. */
const CHECK_BYTES = MiB;

let gc: (() => void) | undefined;

/** V8's full collection (the `--expose-gc` function, made available at run time: no flag on the command line needed). */
function fullCollection(): () => void {
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as () => void;
  }
  return gc;
}

const usedHeap = () => v8.getHeapStatistics().used_heap_size;

export class HeapGuard {
  private base = usedHeap();
  private sinceCheck = 0;
  /** Full collections this guard asked for (the bench reports them). */
  collections = 0;

  constructor(private readonly budgetBytes = 8 * MiB) {}

  /** `bytes` more handled: past the budget since the last collection, collect now. */
  handled(bytes: number): void {
    this.sinceCheck += bytes;
    if (this.sinceCheck < CHECK_BYTES) return;
    this.sinceCheck = 0;
    if (usedHeap() - this.base <= this.budgetBytes) return;
    fullCollection()();
    this.collections++;
    this.base = usedHeap();
  }
}
