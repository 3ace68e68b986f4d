// CloudFront Function (cloudfront-js-2.0), viewer request of the studio's pages: the app's own paths
// (/jobs/12, /settings) are index.html; names with an extension are files of the build.
function handler(event) {
  var request = event.request;
  var last = request.uri.split('/').pop();
  if (last.indexOf('.') === -1) request.uri = '/index.html';
  return request;
}
