// Entry point of the fault-injection domain (the code lives in ./faults/).
export * from './faults/index.js';
