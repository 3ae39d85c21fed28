import { spawn } from 'node:child_process';
import path from 'node:path';

/**
 * Runs the load driver as a second process: `entryFile` started again with SOAK_ROLE=driver and
 * SOAK_DRIVER_INPUT=`inputFile`, from the repository root. Resolves when it exits 0.
 */
export function runDriverProcess(
  entryFile: string,
  inputFile: string,
  seconds: number,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', entryFile], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { ...process.env, SOAK_ROLE: 'driver', SOAK_DRIVER_INPUT: inputFile },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    // bounded: the driver's own deadline plus the longest request it may still be waiting on
    const guard = setTimeout(() => child.kill('SIGKILL'), (seconds + 120) * 1000);
    // Ctrl-C during the load: stop the driver and still drop the schema (a second Ctrl-C quits)
    const interrupt = () => {
      console.error('\ninterrupted: stopping the load, dropping the schema');
      child.kill('SIGKILL');
    };
    process.once('SIGINT', interrupt);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(guard);
      process.off('SIGINT', interrupt);
      if (code === 0) resolve();
      else reject(new Error(`load driver exited with ${signal ?? code}`));
    });
  });
}
