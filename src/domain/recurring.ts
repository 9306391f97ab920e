// Entry point of the recurring billing domain (the code lives in ./recurring/).
export * from './recurring/index.js';
