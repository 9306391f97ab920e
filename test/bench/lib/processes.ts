// The processes a scenario measures: the real `payctl` binary (init, serve, one-shot
// commands) and the floor server, each a child process, so that payctl and its floor
// are measured the same way (a separate process behind a socket).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** dist/test/bench/lib → the repository root. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
export const payctlBin = path.join(repoRoot, 'bin', 'run.js');
const floorScript = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'floor-server.js');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
  /** Peak resident memory (VmHWM, bytes) seen while it ran, when sampled. */
  peakRss?: number;
  /** CPU time (user + system, ms) of the whole process, when asked for (opts.cpu). */
  cpuMs?: number;
}

// Preloaded into a child (--require) when its CPU time is wanted: at exit it writes its
// own process.cpuUsage() (start-up included) as one marked line on stderr. Floor and
// payctl runs get the same probe, so its own small cost is on both sides.
const CPU_MARK = '@@bench-cpu-us ';
let cpuProbe: string | undefined;
function cpuProbeFile(): string {
  if (!cpuProbe) {
    cpuProbe = path.join(mkdtempSync(path.join(tmpdir(), 'payctl-bench-cpu-')), 'cpu-probe.cjs');
    writeFileSync(cpuProbe, `process.on('exit', () => { const u = process.cpuUsage(); require('node:fs').writeSync(2, '\\n${CPU_MARK}' + (u.user + u.system) + '\\n'); });\n`);
  }
  return cpuProbe;
}

/** Run `node args…` to the end; `ms` is the wall time from spawn to exit. */
export function runNode(args: string[], env: Record<string, string> = {}, opts: { sampleRssMs?: number; cpu?: boolean } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, opts.cpu ? ['--require', cpuProbeFile(), ...args] : args, {
      cwd: repoRoot,
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let peak = 0;
    // VmHWM is the process's own high-water mark: sampling it often enough before exit catches the peak.
    const sampler = opts.sampleRssMs
      ? setInterval(() => {
          const v = procStatus(child.pid!, 'VmHWM');
          if (Number.isFinite(v)) peak = Math.max(peak, v);
        }, opts.sampleRssMs)
      : undefined;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (sampler) clearInterval(sampler);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      let cpuMs: number | undefined;
      const mark = stderr.lastIndexOf(CPU_MARK);
      if (opts.cpu && mark >= 0) {
        cpuMs = Number(stderr.slice(mark + CPU_MARK.length).trim()) / 1000;
        stderr = stderr.slice(0, mark).replace(/\n$/, '');
      }
      resolve({ code: code ?? -1, stdout, stderr, ms, ...(sampler ? { peakRss: peak } : {}), ...(cpuMs !== undefined ? { cpuMs } : {}) });
    });
  });
}

export async function payctl(args: string[], db: string, bin = payctlBin): Promise<CliRun> {
  return runNode([bin, ...args, '--db', db]);
}

export async function payctlJson<T>(args: string[], db: string, bin = payctlBin): Promise<T> {
  const r = await payctl([...args, '--json'], db, bin);
  if (r.code !== 0) throw new Error(`payctl ${args.join(' ')} exited ${r.code}: ${r.stderr}${r.stdout}`);
  return JSON.parse(r.stdout) as T;
}

const tempDirs: string[] = [];

/** A fresh directory for a scenario's database (removed by removeTempDirs at the end). */
export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `payctl-bench-${prefix}-`));
  tempDirs.push(dir);
  return dir;
}

/** Remove every scenario directory (the seeded report database alone is about 1 GB). */
export async function removeTempDirs(): Promise<string[]> {
  const dirs = tempDirs.splice(0);
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  return dirs;
}

export const keptTempDirs = (): string[] => [...tempDirs];

export interface Served {
  url: string;
  pid: number;
  child: ChildProcess;
  /** Peak resident memory so far (VmHWM), bytes. */
  peakRss(): number;
  /** Current resident memory (VmRSS), bytes. */
  rss(): number;
  /** CPU time used so far, all threads (user + system), milliseconds. */
  cpuMs(): number;
  /** CPU time so far of the main thread and of all other threads (thread pool, GC), ms. */
  threadCpuMs(): { main: number; others: number };
  /** The server's own counters (SIGUSR2 → a `payctl stats {…}` line), when it has them. */
  stats(): Promise<ServerStats | undefined>;
  /** SIGTERM and wait (clean shutdown: in-flight requests finish). */
  stop(): Promise<number | null>;
  /** SIGKILL and wait: what a crash leaves behind. */
  kill(): Promise<void>;
}

function procCpuMs(pid: number, file = `/proc/${pid}/stat`): number {
  try {
    // Fields 14 and 15 of /proc/<pid>/stat (after the command name): utime, stime in clock ticks (100/s).
    const fields = readFileSync(file, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** Per-thread CPU from /proc/<pid>/task: the main thread's task id is the pid. */
function procThreadCpuMs(pid: number): { main: number; others: number } {
  let main = Number.NaN;
  let others = 0;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const ms = procCpuMs(Number(tid), `/proc/${pid}/task/${tid}/stat`);
      if (!Number.isFinite(ms)) continue;
      if (Number(tid) === pid) main = ms;
      else others += ms;
    }
  } catch {
    return { main: Number.NaN, others: Number.NaN };
  }
  return { main, others };
}

/** What `payctl serve` reports on SIGUSR2 (cumulative since start). */
export interface ServerStats {
  at_ms: number;
  /** performance.eventLoopUtilization() of the main thread: active and idle ms. */
  elu: { active: number; idle: number };
  /** The writer connection: ms with a write transaction open, batches, writes, statements. */
  writer: { busy_ms: number; batches: number; writes: number; statements: number };
}

function procStatus(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Start a server process and wait for the line that carries its URL. */
function serve(args: string[], urlPattern: RegExp, env: Record<string, string> = {}, opts: { stats?: boolean } = {}): Promise<Served> {
  return new Promise((resolve, reject) => {
    // BENCH_SERVER_NODE_ARGS: node options for the servers only (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
    const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
    const child = spawn(process.execPath, [...nodeArgs, ...args], {
      cwd: repoRoot,
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    let listening = false;
    const timer = setTimeout(() => fail(new Error(`server did not start in 60 s: ${err}${out}`)), 60_000);
    const fail = (e: Error) => {
      if (listening) return;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(e);
    };
    child.once('error', fail);
    void exited.then((code) => fail(new Error(`server exited ${code} before it listened: ${err}${out}`)));
    child.stderr.on('data', (d: Buffer) => {
      // Keep only the tail: a long run must not grow this without bound.
      err = (err + d.toString()).slice(-4000);
    });
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = urlPattern.exec(out);
      if (!m) return;
      listening = true;
      clearTimeout(timer);
      child.stdout.removeAllListeners('data');
      // Later output: only `payctl stats {…}` lines are read (the answer to SIGUSR2).
      const waiting: Array<(s: ServerStats | undefined) => void> = [];
      let rest = '';
      child.stdout.on('data', (d: Buffer) => {
        rest += d.toString();
        const lines = rest.split('\n');
        rest = lines.pop()!.slice(-10_000);
        for (const line of lines) {
          if (line.startsWith('payctl stats ')) waiting.shift()?.(JSON.parse(line.slice('payctl stats '.length)) as ServerStats);
        }
      });
      const pid = child.pid!;
      resolve({
        url: m[1]!,
        pid,
        child,
        peakRss: () => procStatus(pid, 'VmHWM'),
        rss: () => procStatus(pid, 'VmRSS'),
        cpuMs: () => procCpuMs(pid),
        threadCpuMs: () => procThreadCpuMs(pid),
        stats() {
          // Only a server known to answer SIGUSR2 gets one (its default action ends a process).
          if (!opts.stats || child.exitCode !== null) return Promise.resolve(undefined);
          return new Promise((resolveStats) => {
            const timer = setTimeout(() => {
              const i = waiting.indexOf(done);
              if (i >= 0) waiting.splice(i, 1);
              resolveStats(undefined);
            }, 5000);
            const done = (s: ServerStats | undefined) => {
              clearTimeout(timer);
              resolveStats(s);
            };
            waiting.push(done);
            child.kill('SIGUSR2');
          });
        },
        async stop() {
          if (child.exitCode !== null) return child.exitCode;
          child.kill('SIGTERM');
          const code = await exited;
          if (code !== 0 && err.trim()) process.stderr.write(`server stderr: ${err.slice(-1000)}\n`);
          return code;
        },
        async kill() {
          if (child.exitCode !== null) return;
          child.kill('SIGKILL');
          await exited;
        },
      });
    });
  });
}

/** The real `payctl serve` on a free port (defaults: access log beside the database, clock timer on). */
export function startPayctl(db: string, extra: string[] = [], opts: { bin?: string; stats?: boolean; env?: Record<string, string> } = {}): Promise<Served> {
  return serve([opts.bin ?? payctlBin, 'serve', '--db', db, '--port', '0', ...extra], /payctl serving (http:\/\/[^\s/]+)/, opts.env ?? {}, {
    stats: opts.stats ?? !opts.bin,
  });
}

/** Another build of payctl to compare with (BENCH_BASELINE: a checkout with `npm run build` done), or undefined. */
export function baselineBin(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dir = env.BENCH_BASELINE;
  return dir ? path.join(path.resolve(dir), 'bin', 'run.js') : undefined;
}

/** The floor: a bare polka server that parses the JSON body and answers `responseBytes` of JSON. */
export function startFloor(responseBytes: number): Promise<Served> {
  return serve([floorScript], /floor listening (http:\/\/\S+)/, { FLOOR_RESPONSE_BYTES: String(responseBytes) });
}
