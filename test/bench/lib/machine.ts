// What the numbers were measured on.
import os from 'node:os';
import { readFileSync } from 'node:fs';

export interface Machine {
  cores: number;
  cpu_model: string;
  memory_bytes: number;
  memory_gib: number;
  node: string;
  platform: string;
  kernel: string;
  load_average_at_start: number[];
}

export function machine(): Machine {
  const cpus = os.cpus();
  let cores = cpus.length;
  try {
    // A container may be limited below the host's CPU count.
    const [quota, period] = readFileSync('/sys/fs/cgroup/cpu.max', 'utf8').trim().split(/\s+/);
    if (quota && quota !== 'max') cores = Math.min(cores, Math.ceil(Number(quota) / Number(period)));
  } catch {
    // no cgroup v2 limit
  }
  return {
    cores,
    cpu_model: cpus[0]?.model.trim() ?? 'unknown',
    memory_bytes: os.totalmem(),
    memory_gib: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    kernel: os.release(),
    load_average_at_start: os.loadavg().map((x) => Math.round(x * 100) / 100),
  };
}
