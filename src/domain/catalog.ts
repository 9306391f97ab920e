// Entry point of the catalog domain (the code lives in ./catalog/).
export * from './catalog/index.js';
