/** A worker thread of `audit verify --file`: checks the byte range it is given and answers its summary. */
import { parentPort, workerData } from 'node:worker_threads';
import { checkRange, type RangeWork } from './ledger-walk.js';

parentPort!.postMessage(await checkRange(workerData as RangeWork));
