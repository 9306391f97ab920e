// The examples of a third of the pages (test/docs/run-examples.ts).
import { testDocExamples } from './run-examples.js';

testDocExamples(1);
