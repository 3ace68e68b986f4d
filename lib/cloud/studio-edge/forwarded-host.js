// CloudFront Function (cloudfront-js-2.0), viewer request of /api/*: API Gateway sees its own host, so
// the studio's host travels in x-forwarded-host for the API's same-origin check; a viewer's own value is overwritten.
function handler(event) {
  var request = event.request;
  request.headers['x-forwarded-host'] = { value: request.headers.host.value };
  return request;
}
