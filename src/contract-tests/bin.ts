#!/usr/bin/env node
import { contractMain } from './main.js';

process.exitCode = await contractMain({ argv: process.argv.slice(2), env: process.env, cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr });
