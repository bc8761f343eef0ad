import { createRequire } from 'node:module';
import type * as StreamsPb from '@eventstore/db-client/generated/streams_pb.js';
import type * as SharedPb from '@eventstore/db-client/generated/shared_pb.js';
import type * as GossipPb from '@eventstore/db-client/generated/gossip_pb.js';
import type * as FeaturesPb from '@eventstore/db-client/generated/serverfeatures_pb.js';
import type * as StatusPb from '@eventstore/db-client/generated/status_pb.js';
import type * as OperationsPb from '@eventstore/db-client/generated/operations_pb.js';
import type { ServiceDefinition } from '@grpc/grpc-js';

/**
 * The client package's own generated protobuf code (google-protobuf, CommonJS): the server speaks
 * exactly the messages the client was built against. Loaded once, so `instanceof` checks in the
 * generated serializers hold.
 */
const require = createRequire(import.meta.url);
const load = <T>(name: string): T => require(`@eventstore/db-client/generated/${name}.js`) as T;

export const streams = load<typeof StreamsPb>('streams_pb');
export const shared = load<typeof SharedPb>('shared_pb');
export const gossip = load<typeof GossipPb>('gossip_pb');
export const features = load<typeof FeaturesPb>('serverfeatures_pb');
export const status = load<typeof StatusPb>('status_pb');
export const operations = load<typeof OperationsPb>('operations_pb');
export const Any = (require('google-protobuf/google/protobuf/any_pb.js') as typeof import('google-protobuf/google/protobuf/any_pb.js')).Any;
export const ProtoEmpty = (require('google-protobuf/google/protobuf/empty_pb.js') as typeof import('google-protobuf/google/protobuf/empty_pb.js')).Empty;

export const StreamsService = load<{ StreamsService: ServiceDefinition }>('streams_grpc_pb').StreamsService;
export const GossipService = load<{ GossipService: ServiceDefinition }>('gossip_grpc_pb').GossipService;
export const OperationsService = load<{ OperationsService: ServiceDefinition }>('operations_grpc_pb').OperationsService;
export const ServerFeaturesService = load<{ ServerFeaturesService: ServiceDefinition }>('serverfeatures_grpc_pb').ServerFeaturesService;

export type { StreamsPb, SharedPb, OperationsPb };
