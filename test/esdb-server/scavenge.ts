import { randomUUID } from 'node:crypto';
import type { sendUnaryData, ServerUnaryCall } from '@grpc/grpc-js';
import { operations, type OperationsPb } from './pb.js';
import { unknown } from './rpcErrors.js';

/**
 * Operations.StartScavenge, the admin operation that removes deleted streams' events from the log
 * (and so from `$all`). The server answers `Started` and scavenges in the background; the double
 * scavenges before it answers, so a test can read `$all` as soon as the call returns.
 */
export const startScavengeHandler =
  (scavenge: () => Promise<number>) =>
  (_call: ServerUnaryCall<OperationsPb.StartScavengeReq, OperationsPb.ScavengeResp>, callback: sendUnaryData<OperationsPb.ScavengeResp>) => {
    scavenge().then(
      () => callback(null, new operations.ScavengeResp().setScavengeId(randomUUID()).setScavengeResult(operations.ScavengeResp.ScavengeResult.STARTED)),
      (error: Error) => callback(unknown(error.message) as never),
    );
  };
