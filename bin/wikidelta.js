#!/usr/bin/env node
// The sources are TypeScript run through tsx's loader, so the checkout works without a build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
