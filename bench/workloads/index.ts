// The workloads, in the order the issue lists them.
import type { Workload } from './types.ts';
import { w1 } from './w1-tool-call.ts';
import { w2 } from './w2-transcript.ts';
import { w3 } from './w3-ask-documents.ts';
import { w4 } from './w4-token-endpoint.ts';
import { w5 } from './w5-scale-curve.ts';
import { w6 } from './w6-start.ts';

export const workloads: Workload[] = [w1, w2, w3, w4, w5, w6];
