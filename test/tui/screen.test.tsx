// Every Ink screen runs through runScreen: an error in a component or in a key handler
// closes the screen and comes back as one line (a ScreenError), never Ink's error overview
// with its source excerpt and React stack, never Node's trace.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { ink, loadRuntime, React, runScreen, ScreenError } from '../../src/tui/runtime.js';
import { useKeys } from '../../src/tui/keys.js';

class FakeStdout extends EventEmitter {
  columns = 80;
  rows = 24;
  isTTY = true;
  out = '';
  write = (s: string) => ((this.out += s), true);
}
class FakeStdin extends EventEmitter {
  isTTY = true;
  private data: string | null = null;
  write(data: string) {
    this.data = data;
    this.emit('readable');
    this.emit('data', data);
  }
  read = () => {
    const d = this.data;
    this.data = null;
    return d;
  };
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}

async function run(component: () => React.ReactElement, keys: string[] = []) {
  await loadRuntime();
  const stdout = new FakeStdout();
  const stdin = new FakeStdin();
  const done = runScreen('test screen', () => React.createElement(component), {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
  });
  for (const k of keys) {
    await new Promise((r) => setTimeout(r, 20));
    stdin.write(k);
  }
  const err = await done.then(
    () => undefined,
    (e: unknown) => e,
  );
  return { err, out: stdout.out };
}

test('a component that throws while rendering: one line, no stack, no source excerpt', async () => {
  const { err, out } = await run(() => {
    throw new Error('the page went missing');
  });
  assert.ok(err instanceof ScreenError, String(err));
  assert.equal(err.message, 'the test screen stopped: the page went missing');
  assert.doesNotMatch(out, /ERROR|\.js:\d+|react-reconciler|at /);
});

test('a key handler that throws: the screen closes with one line instead of ending the process', async () => {
  function Screen() {
    useKeys((input) => {
      if (input === 'x') throw new Error('cannot handle x');
    });
    return React.createElement(ink.Text, null, 'press x');
  }
  const { err, out } = await run(Screen, ['x']);
  assert.ok(err instanceof ScreenError, String(err));
  assert.equal(err.message, 'the test screen stopped: cannot handle x');
  assert.match(out, /press x/);
  assert.doesNotMatch(out, /ERROR|\.js:\d+|react-reconciler/);
});

test('a last frame taller than the terminal ends with a line break, so the next output starts on its own line', async () => {
  function Tall() {
    const [done, setDone] = React.useState(false);
    const { exit } = ink.useApp();
    React.useEffect(() => {
      if (done) exit();
      else setDone(true);
    }, [done]);
    return React.createElement(ink.Box, { flexDirection: 'column' }, ...Array.from({ length: 40 }, (_, i) => React.createElement(ink.Text, { key: i }, `line ${i}`)));
  }
  const { err, out } = await run(Tall);
  assert.equal(err, undefined);
  assert.match(out, /line 39/);
  assert.match(out.replace(/\u001B\[[0-9;?]*[A-Za-z]/g, ''), /\n$/); // eslint-disable-line no-control-regex
});
