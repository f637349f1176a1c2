// Setup file of the integration and browser projects: runs before each test file is loaded, so the
// file's module-level `testStack()` already has its stack, and gives the stack back after the
// file's own afterAll hooks (Vitest runs the hooks registered first last).
import { afterAll } from 'vitest';
import { holdStack, releaseStack } from '../support/stack.ts';

await holdStack();
afterAll(releaseStack);
