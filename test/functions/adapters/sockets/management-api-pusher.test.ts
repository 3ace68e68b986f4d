import { mockClient } from 'aws-sdk-client-mock';
import { ApiGatewayManagementApiClient, GoneException, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import { ManagementApiPusher } from '#adapters/sockets/management-api-pusher';

const client = new ApiGatewayManagementApiClient({ endpoint: 'https://abc123.execute-api.eu-west-1.amazonaws.com/v1', region: 'eu-west-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
const api = mockClient(client);
afterEach(() => api.reset());
afterAll(() => api.restore());

describe('posting a live update to a socket', () => {
  test('posts the message as the connection data and says it was sent', async () => {
    api.on(PostToConnectionCommand).resolves({});
    await expect(new ManagementApiPusher({ client }).post('Zr1abc=', '{"type":"update"}')).resolves.toBe('sent');
    const input = api.commandCalls(PostToConnectionCommand)[0]!.args[0].input;
    expect(input.ConnectionId).toBe('Zr1abc=');
    expect(new TextDecoder().decode(input.Data as Uint8Array)).toBe('{"type":"update"}');
  });

  test('a connection that closed without $disconnect reaching us is gone, not a failure', async () => {
    api.on(PostToConnectionCommand).rejects(new GoneException({ message: 'gone', $metadata: { httpStatusCode: 410 } }));
    await expect(new ManagementApiPusher({ client }).post('Zr1abc=', '{}')).resolves.toBe('gone');
  });

  test('any other failure is thrown, so the stream retries the batch', async () => {
    api.on(PostToConnectionCommand).rejects(Object.assign(new Error('Rate exceeded'), { name: 'LimitExceededException' }));
    await expect(new ManagementApiPusher({ client }).post('Zr1abc=', '{}')).rejects.toThrow('Rate exceeded');
  });
});
