/**
 * Live updates on AWS: a WebSocket API whose three routes call one function ($default answering down
 * the socket), a logged stage, a pusher woken by the table's stream for jobs, products and avatars
 * only, allowed to post to this stage's connections and nothing else, and the ticket function told
 * where clients connect.
 */
import { UPDATES_ENV, UPDATES_STAGE } from '#cloud/live-updates';
import { actionsOf, referencedIds, resourcesOf, resourcesOfType, roleStatements, synthesisedStack, type Resource } from '#test-support/cdk-template';

const { resources, ids } = synthesisedStack();
const { webSocketApi, stage, socketFunction, pusher, failedStreamBatches } = ids.liveUpdates;

const routesOf = () => resourcesOfType(resources, 'AWS::ApiGatewayV2::Route').filter(([, r]) => referencedIds(r.Properties.ApiId).includes(webSocketApi));
const integrationOf = (route: Resource) => resources[referencedIds(route.Properties.Target)[0]!]!;

describe('the WebSocket API', () => {
  test('is a WebSocket API whose $connect, $disconnect and $default all call the socket function', () => {
    expect(resources[webSocketApi]!.Properties).toMatchObject({ ProtocolType: 'WEBSOCKET' });
    const routes = routesOf();
    expect(routes.map(([, r]) => r.Properties.RouteKey).sort()).toEqual(['$connect', '$default', '$disconnect']);
    for (const [, route] of routes) {
      const integration = integrationOf(route);
      expect(integration.Properties.IntegrationType).toBe('AWS_PROXY');
      expect(referencedIds(integration.Properties.IntegrationUri)).toContain(socketFunction);
    }
  });

  test("answers each message down the socket ($default's route response), and only $default does", () => {
    const responses = resourcesOfType(resources, 'AWS::ApiGatewayV2::RouteResponse').filter(([, r]) => referencedIds(r.Properties.ApiId).includes(webSocketApi));
    expect(responses).toHaveLength(1);
    const [, response] = responses[0]!;
    const route = resources[referencedIds(response.Properties.RouteId)[0]!]!;
    expect(route.Properties.RouteKey).toBe('$default');
    expect(route.Properties.RouteResponseSelectionExpression).toBe('$default');
  });

  test(`is served from the "${UPDATES_STAGE}" stage, deployed on change, throttled and access-logged without the query string`, () => {
    const props = resources[stage]!.Properties;
    expect(props).toMatchObject({ StageName: UPDATES_STAGE, AutoDeploy: true });
    expect(props.DefaultRouteSettings).toMatchObject({ ThrottlingRateLimit: expect.any(Number), ThrottlingBurstLimit: expect.any(Number) });
    expect(props.AccessLogSettings.Format).toContain('$context.connectionId');
    // The ticket travels in the query: the log must not keep it.
    expect(props.AccessLogSettings.Format).not.toMatch(/querystring|\$request/i);
  });
});

describe('the pusher', () => {
  test("is woken by the table's stream for inserted and changed jobs, products and avatars only, failed batches kept", () => {
    const mappings = resourcesOfType(resources, 'AWS::Lambda::EventSourceMapping').filter(([, m]) => referencedIds(m.Properties.FunctionName).includes(pusher));
    expect(mappings).toHaveLength(1);
    const [, mapping] = mappings[0]!;
    expect(referencedIds(mapping.Properties.EventSourceArn)).toContain(ids.data.table);
    expect(mapping.Properties).toMatchObject({ StartingPosition: 'LATEST', MaximumRetryAttempts: 3 });
    const pattern = JSON.parse(mapping.Properties.FilterCriteria.Filters[0].Pattern);
    expect(pattern).toEqual({
      eventName: ['INSERT', 'MODIFY'],
      dynamodb: { Keys: { sk: { S: [{ prefix: 'JOB#' }, { prefix: 'PRODUCT#' }, { prefix: 'AVATAR#' }] } } },
    });
    expect(referencedIds(mapping.Properties.DestinationConfig.OnFailure.Destination)).toEqual([failedStreamBatches]);
  });

  test("may post to this stage's connections only, and is told the stage's Management API address", () => {
    const manage = roleStatements(resources, pusher).filter((s) => actionsOf(s).includes('execute-api:ManageConnections'));
    expect(manage).toHaveLength(1);
    const scoped = JSON.stringify(resourcesOf(manage[0]!));
    expect(scoped).toContain(`/${UPDATES_STAGE}/`);
    expect(referencedIds(resourcesOf(manage[0]!))).toContain(webSocketApi);
    const endpoint = JSON.stringify(resources[pusher]!.Properties.Environment.Variables[UPDATES_ENV.endpoint]);
    expect(endpoint).toContain('https://');
    expect(referencedIds(resources[pusher]!.Properties.Environment.Variables[UPDATES_ENV.endpoint])).toContain(webSocketApi);
  });

  test('no other function may manage connections', () => {
    const functions = resourcesOfType(resources, 'AWS::Lambda::Function').map(([id]) => id);
    const managers = functions.filter((fn) => roleStatements(resources, fn).some((s) => actionsOf(s).includes('execute-api:ManageConnections')));
    expect(managers).toEqual([pusher]);
  });
});

test('the accounts function, which issues tickets, names the socket address; the socket function reads the table and the bucket', () => {
  const url = JSON.stringify(resources[ids.api.functions.accounts]!.Properties.Environment.Variables[UPDATES_ENV.url]);
  expect(url).toContain('wss://');
  expect(url).toContain(UPDATES_STAGE);
  const actions = roleStatements(resources, socketFunction).flatMap(actionsOf);
  expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:DeleteItem', 's3:GetObject']));
  expect(actions.some((a) => a === 's3:PutObject' || a === 's3:DeleteObject')).toBe(false);
});
