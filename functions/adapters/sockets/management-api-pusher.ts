/**
 * Posts live updates to API Gateway WebSocket connections through the Management API's client
 * (PostToConnection on the stage's endpoint, with the function's role: `execute-api:ManageConnections`
 * on this API's connections, lib/cloud/live-updates.ts). GoneException (the connection closed without
 * $disconnect reaching us) is an answer; any other failure is one the stream retries.
 */
import { ApiGatewayManagementApiClient, GoneException, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import type { UpdatePusher } from '#ports/update-sockets';

export interface ManagementApiOptions {
  /** `https://{api-id}.execute-api.{region}.amazonaws.com/{stage}` */
  endpoint: string;
  region: string;
}

export class ManagementApiPusher implements UpdatePusher {
  private readonly client: ApiGatewayManagementApiClient;

  constructor(options: ManagementApiOptions | { client: ApiGatewayManagementApiClient }) {
    this.client = 'client' in options ? options.client : new ApiGatewayManagementApiClient({ endpoint: options.endpoint, region: options.region });
  }

  async post(connectionId: string, message: string): Promise<'sent' | 'gone'> {
    try {
      await this.client.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: new TextEncoder().encode(message) }), { abortSignal: AbortSignal.timeout(5000) });
      return 'sent';
    } catch (error) {
      if (error instanceof GoneException) return 'gone';
      throw error;
    }
  }
}
