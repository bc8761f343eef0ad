import { randomUUID } from 'node:crypto';
import type { sendUnaryData, ServerUnaryCall } from '@grpc/grpc-js';
import { features, gossip } from './pb.js';
import { uuidOf } from './wire.js';

/** Gossip.Read: a one-node cluster whose leader is this server, for `esdb+discover://` URLs. */
export const gossipHandler =
  (host: string, port: () => number) =>
  (_call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
    const member = new gossip.MemberInfo()
      .setInstanceId(uuidOf(randomUUID(), false))
      .setTimeStamp((BigInt(Date.now()) * 10_000n).toString())
      .setState(gossip.MemberInfo.VNodeState.LEADER)
      .setIsAlive(true)
      .setHttpEndPoint(new gossip.EndPoint().setAddress(host).setPort(port()));
    callback(null, new gossip.ClusterInfo().setMembersList([member]));
  };

const STREAMS = 'event_store.client.streams.streams';
const METHODS = ['read', 'append', 'delete', 'tombstone', 'batchappend'];

/** ServerFeatures.GetSupportedMethods, as a 21.10+ server answers it: Streams with BatchAppend. */
export const featuresHandler =
  (version: string) => (_call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
    const methods = METHODS.map((name) => {
      const method = new features.SupportedMethod().setServiceName(STREAMS).setMethodName(name);
      if (name === 'read') method.setFeaturesList(['position', 'events']);
      if (name === 'batchappend') method.setFeaturesList(['deadline_duration']);
      return method;
    });
    callback(null, new features.SupportedMethods().setEventStoreServerVersion(version).setMethodsList(methods));
  };
