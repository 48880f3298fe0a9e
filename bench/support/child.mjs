// Child processes for the bench: a figure script run by bench/run.mjs (its section comes back over IPC), and
// companion processes that live beside a measurement (the load generator, the stream server) and answer requests. Every
// wait is bounded; stop() ends the one process it started.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BENCH = new URL('../', import.meta.url);

/**
 * Runs bench/<script> in a child and resolves with the section it reports. A crash or a timeout rejects with the
 * child's last output lines.
 */
export function runScript(script, { timeoutMs, execArgv = [], env = {} } = {}) {
  const child = fork(fileURLToPath(new URL(script, BENCH)), [], {
    execArgv,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
    process.stderr.write(chunk);
  });
  return new Promise((resolve, reject) => {
    let section;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not finish within ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
    child.on('message', (message) => {
      if (message?.type === 'section') section = message.section;
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (section && code === 0) resolve(section);
      else
        reject(
          new Error(
            `${script} exited with ${signal ?? code}${section ? '' : ' before reporting'}: ${stderr.trim().split('\n').slice(-3).join(' / ')}`,
          ),
        );
    });
  });
}

/**
 * Starts a companion process (a module under bench/support/ that calls serveRequests) and returns request(message), which
 * resolves with its answer, and stop().
 */
export async function startCompanion(module, { execArgv = [], readyTimeoutMs = 30_000 } = {}) {
  const child = fork(fileURLToPath(new URL(`support/${module}`, BENCH)), [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting = new Map();
  let nextId = 0;
  child.on('message', (message) => {
    const entry = waiting.get(message?.id);
    if (!entry) return;
    waiting.delete(message.id);
    clearTimeout(entry.timer);
    if (message.error) entry.reject(new Error(`${module}: ${message.error}`));
    else entry.resolve(message.answer);
  });
  child.once('exit', (code) => {
    for (const entry of waiting.values()) {
      clearTimeout(entry.timer);
      entry.reject(new Error(`${module} exited with ${code}`));
    }
    waiting.clear();
  });
  const request = (message, timeoutMs = 120_000) =>
    new Promise((resolve, reject) => {
      const id = ++nextId;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`${module} did not answer ${message.cmd} within ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      waiting.set(id, { resolve, reject, timer });
      child.send({ id, ...message });
    });
  await request({ cmd: 'ping' }, readyTimeoutMs);
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(force);
  };
  return { request, stop, pid: child.pid };
}

/** In a companion process: answers each request with handlers[cmd](message); 'ping' is built in. */
export function serveRequests(handlers) {
  process.on('message', async (message) => {
    const { id, cmd } = message ?? {};
    try {
      const handler = cmd === 'ping' ? async () => 'pong' : handlers[cmd];
      if (!handler) throw new Error(`no command ${cmd}`);
      process.send({ id, answer: await handler(message) });
    } catch (error) {
      process.send({ id, error: error instanceof Error ? error.message : String(error) });
    }
  });
  // The companion process ends with its parent, and exits normally on SIGTERM (so that --cpu-prof can write its profile).
  process.on('disconnect', () => process.exit(0));
  process.on('SIGTERM', () => process.exit(0));
}
