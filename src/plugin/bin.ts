#!/usr/bin/env node
import { main } from './cli.js';

const code = await main(process.argv.slice(2));
process.exitCode = code;
// Done: a config file may have left a timer or a socket open (or a default export that never settled),
// which must not keep the CLI alive. Unref'd, so a clean exit is not delayed by it.
setTimeout(() => process.exit(code), 200).unref();
