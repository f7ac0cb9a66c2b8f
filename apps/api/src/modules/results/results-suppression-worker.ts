// The suppression of one survey's results off the API's event loop (decision 033): at national volume
// the exact audit takes seconds of CPU, during which /api/health and every other request would wait.
// Kept between calls (results-suppression-thread.ts): one message in, its views out.
import { parentPort } from 'node:worker_threads';
import {
  suppressTallies,
  type CategoryCount,
  type Group,
  type ItemDef,
  type SuppressOptions,
} from './results-suppression.ts';

parentPort!.on('message', (data) => {
  const { items, groups, pairs, minGroup, previous } = data as {
    items: ItemDef[];
    groups: Group[];
    pairs: [string, CategoryCount[]][];
    minGroup: number;
    previous: SuppressOptions['previous'];
  };
  parentPort!.postMessage([
    ...suppressTallies(items, { groups, pairs: new Map(pairs) }, minGroup, { previous }).views,
  ]);
});
