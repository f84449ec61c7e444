// zod turns each object schema into a compiled parser (`new Function`) the first time it parses
// with it. A start of the core parses several dozen schemas once or a few times each (settings,
// the mock's state, health history, the first replies), where compiling costs more than it saves:
// measured on the web host's start, its core opened 10 ms sooner without (93 vs 103 ms
// from listening to the first health check, medians of 12), the first screen said "Connected"
// 398 vs 440 ms after spawn (medians of 20). The hot paths do not go through zod: a stream's
// `{"content": …}` events skip the schema (chat-stream.ts), and the mock serialises its replies with
// fast-json-stringify. Set before the core's schemas are made: zod reads it as it makes each one.
import { z } from 'zod';

z.config({ jitless: true });
