/** A SyncThread entry that ends on an error it does not report, as a thread with a bug would. */
import { syncThreadPort } from '../../src/syncThread.js';

syncThreadPort();
setTimeout(() => {
  throw new Error('a bug in the thread');
}, 10);
