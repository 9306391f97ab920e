// One step of the demo data (`payctl init --demo`, a sandbox created with demo): what
// every demo-*.ts module exports and demo.ts runs in order, each adding its ids to the state.
import type { Platform } from '../services/platform.js';

export interface DemoState {
  group_id: string;
  processor_id: string;
  linked_account_id: string;
  customer_id: string;
  steps: string[];
  [extra: string]: unknown;
}

export interface DemoStep {
  name: string;
  run(p: Platform, state: DemoState): Promise<Partial<DemoState>>;
}
