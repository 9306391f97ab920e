#!/usr/bin/env node
// The payctl binary: oclif loads the compiled commands from dist/commands.
import { execute } from '@oclif/core';

await execute({ dir: import.meta.url });
