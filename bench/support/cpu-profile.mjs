// A CPU profile of one stretch of a bench run, taken in process through the inspector, so that a figure can be
// broken down where it is measured (the fan-out, say) without the noise of setting it up. Written as a
// .cpuprofile file that Chrome DevTools and speedscope open.
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';

/** Starts profiling this process at `intervalUs`; resolves with stop(path), which writes the profile there. */
export async function startCpuProfile(intervalUs = 100) {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: intervalUs });
  await session.post('Profiler.start');
  return {
    async stop(path) {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      await writeFile(path, JSON.stringify(profile));
      return path;
    },
  };
}
