/// The OpenAPI 3.1 document of chimed's HTTP API (`openapi.json` beside this file, embedded at build
/// time): the single description of every route, body and error, served at `GET /v1/openapi.json`. A test
/// holds it to `Route` both ways: every route is in it, and everything in it is a route.
public enum OpenAPIDocument {
    public static var bytes: [UInt8] { PackageResources.openapi_json }
}
