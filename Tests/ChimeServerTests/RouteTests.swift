import ChimeAPI
import Testing

@Suite("Routes")
struct RouteTests {
    @Test(arguments: ["com.example.app", "a/b", "with space", "percent%41", "ünïcödé", "?#&=+", ".."])
    func anyIdentifierIsOnePathSegmentAndComesBackIntact(identifier: String) {
        let path = Route.removeOnePending.path("com.example.app", identifier)
        #expect(path.split(separator: "/").count == 5, "\(path)")
        #expect(Route.match(method: "DELETE", path: path) == .route(.removeOnePending, ["app": "com.example.app", "id": identifier]))
    }

    @Test func theSamePathWithAnotherMethodSaysWhichMethodsItTakes() {
        guard case .wrongMethod(let allowed) = Route.match(method: "PATCH", path: "/v1/apps/x/pending") else {
            Issue.record("expected wrongMethod")
            return
        }
        #expect(Set(allowed) == [.get, .post, .delete])
        #expect(Route.match(method: "GET", path: "/v1/nothing") == .none)
        #expect(Route.match(method: "GET", path: "/v1/apps/x/pending/extra/segments") == .none)
        #expect(Route.match(method: "GET", path: "v1/status") == .none, "a path without its leading slash")
    }

    @Test func brokenEscapesAndEmptySegmentsMatchNothing() {
        #expect(Route.match(method: "GET", path: "/v1/apps/%ZZ/settings") == .none)
        #expect(Route.match(method: "GET", path: "/v1/apps/%FF%FE/settings") == .none, "bytes that are not UTF-8")
        #expect(Route.match(method: "GET", path: "/v1/apps//settings") == .none)
    }

    @Test func everyTemplateIsDistinctForItsMethod() {
        let keys = Route.allCases.map { "\($0.method.rawValue) \($0.template)" }
        #expect(Set(keys).count == keys.count)
        for route in Route.allCases where !route.template.contains("{") {
            #expect(Route.match(method: route.method.rawValue, path: route.template) == .route(route, [:]))
        }
    }

    @Test func onlyTheUsersActionsAnAppsAnswersAndAPNsRequestsAreNotIdempotent() {
        #expect(Set(Route.allCases.filter { !$0.isIdempotent }) == [.respond, .answerQuestion, .acknowledgeResponse, .apnsDoor])
    }
}
