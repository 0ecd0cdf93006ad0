import ChimeAPI
import ChimeCore
public import ChimeEngine
import Foundation
import Synchronization

/// chimed's HTTP API: checks who asks before anything is read, maps each route to one `NotificationService`
/// call, and the service's answers and errors to HTTP. No rules live here.
///
/// Who may ask: every request carries `Authorization: Bearer <token>` (the daemon's token file). On the
/// Unix socket the peer must also be the daemon's own user (`SO_PEERCRED`); on TCP the `Host` header must
/// name the loopback address the daemon serves (a page on another site that resolved its name to
/// 127.0.0.1 — DNS rebinding — is refused), and no CORS header is ever sent, so browsers let no other
/// origin read an answer.
public final class APIHandler: HTTPHandler {
    public struct Access: Sendable {
        /// The bearer token every request must carry.
        public var token: String
        /// The only user whose processes may use the Unix socket.
        public var userID: UInt32
        /// The `Host` values TCP requests may carry (`127.0.0.1:PORT`, `localhost:PORT`).
        public var hosts: Set<String>
        /// Where client processes are looked up to tell sandboxed apps (`/proc`).
        public var procRoot: String
        /// The web center's address (`http://127.0.0.1:PORT`), once the TCP listener is bound.
        public var webOrigin: String?

        public init(token: String, userID: UInt32, hosts: Set<String>, procRoot: String = "/proc") {
            self.token = token
            self.userID = userID
            self.hosts = hosts
            self.procRoot = procRoot
        }
    }

    let service: NotificationService
    let access: Mutex<Access>
    /// The browsers let in through `chime web`.
    let webSessions = WebSessions()
    /// The signed addresses of attachments the center shows.
    let attachmentLinks = AttachmentLinks()
    let log: any EngineLog
    /// Pushes to the user's browsers, when the daemon offers them.
    let browserPush: (any BrowserPushing)?
    /// The status as encoded last, so the busiest route answers without encoding.
    private let encodedStatus = Mutex<(status: StatusResult, bytes: [UInt8])?>(nil)

    public init(service: NotificationService, access: Access, log: any EngineLog, browserPush: (any BrowserPushing)? = nil) {
        self.service = service
        self.access = Mutex(access)
        self.log = log
        self.browserPush = browserPush
    }

    /// The TCP listener's `Host` values, once it is bound, and the web center's address on it.
    public func allowHosts(_ hosts: Set<String>, webOrigin: String? = nil) {
        access.withLock { access in
            access.hosts.formUnion(hosts)
            if let webOrigin { access.webOrigin = webOrigin }
        }
    }

    /// A new one-time link into the web center, opening at `#fragment` when given; `nil` while chimed
    /// serves no loopback address.
    public func webLoginURL(fragment: String? = nil) -> String? {
        guard let origin = access.withLock({ $0.webOrigin }) else { return nil }
        return origin + "/login?code=" + webSessions.newCode() + (fragment.map { "#" + $0 } ?? "")
    }

    // MARK: HTTPHandler

    public func screen(_ head: HTTPRequestHead) -> HTTPScreening {
        let access = access.withLock { $0 }
        var pid: Int32?
        switch head.peer {
        case .unix(let uid, let peerPID):
            pid = peerPID
            guard uid == access.userID else {
                return .refuse(errorResponse(APIError(.forbidden, "the API's socket serves only its owner's processes")))
            }
            if APNsDoor.isDoorPath(head.path) { return .admit(context: APNsDoorRequestMarker()) }
        case .tcp:
            guard let host = head.headers["host"]?.lowercased(), access.hosts.contains(host) else {
                return .refuse(errorResponse(APIError(.forbidden, field: "Host", "this server answers only to its loopback address")))
            }
            // APNs' endpoint proves the sender with a provider token, and answers as APNs does.
            if APNsDoor.isDoorPath(head.path) { return .admit(context: APNsDoorRequestMarker()) }
            // The web center's files hold no data; the page reads the API with its session.
            if !head.path.hasPrefix("/v1/") { return .admit(context: WebPages.Request()) }
            if head.headers["authorization"] == nil, let session = webSessions.session(cookieHeader: head.headers["cookie"]) {
                if let refusal = Self.pageChangeRefusal(head, session: session, host: host) { return .refuse(errorResponse(refusal)) }
                return .admit(context: Route.match(method: head.method, path: head.path))
            }
        }
        guard let authorization = head.headers["authorization"], authorization.hasPrefix("Bearer "),
            Self.constantTimeEqual(String(authorization.dropFirst("Bearer ".count)), access.token)
        else {
            var refusal = errorResponse(APIError(.unauthenticated, "send the daemon's token as Authorization: Bearer <token>"))
            refusal.headers.append(("WWW-Authenticate", #"Bearer realm="chimed""#))
            return .refuse(refusal)
        }
        let match = Route.match(method: head.method, path: head.path)
        let identity = ClientIdentity.resolve(pid: pid, declaredApp: head.headers[ClientIdentity.appHeader], procRoot: access.procRoot)
        if identity != .user, case .route(let route, let parameters) = match,
            let refusal = AppConfinement.refusal(route, parameters: parameters, identity: identity)
        {
            return .refuse(errorResponse(refusal))
        }
        return .admit(context: match)
    }

    /// Why a request with the page's session may not change anything: every change carries the
    /// session's CSRF token, and comes from the center's own origin when the browser names one.
    static func pageChangeRefusal(_ head: HTTPRequestHead, session: WebSessions.Session, host: String) -> APIError? {
        guard head.method != "GET", head.method != "HEAD" else { return nil }
        guard let token = head.headers[WebSessions.csrfHeader], constantTimeEqual(token, session.csrfToken) else {
            return APIError(.forbidden, field: "X-Chime-CSRF", "a change from the web center carries its session's CSRF token")
        }
        if let origin = head.headers["origin"], origin.lowercased() != "http://" + host {
            return APIError(.forbidden, field: "Origin", "the web center takes changes only from its own pages")
        }
        return nil
    }

    public func tooLarge(_ head: HTTPRequestHead, limit: Int) -> HTTPResponse {
        errorResponse(APIError(.payloadTooLarge, "the request body is larger than the \(limit) bytes chimed takes", limit: limit))
    }

    public func unavailable(_ head: HTTPRequestHead) -> HTTPResponse {
        errorResponse(APIError(.unavailable, "chimed is stopping"))
    }

    public func answerAtOnce(_ request: HTTPRequest) -> HTTPResponse? {
        if request.context is WebPages.Request {
            // An attachment is looked up in the store first, an icon read from disk: not at once.
            if request.head.path.hasPrefix(AttachmentLinks.prefix) || request.head.path.hasPrefix(WebPages.iconPrefix) { return nil }
            return WebPages.answer(request.head, sessions: webSessions)
        }
        guard case .route(let route, _) = Self.match(request) else { return nil }
        switch route {
        case .openAPI:
            return HTTPResponse(status: 200, headers: HTTPResponse.jsonHeaders, body: .bytes(OpenAPIDocument.bytes))
        case .status:
            guard let status = service.recentStatus() else { return nil }
            let cached = encodedStatus.withLock { cached in cached?.status == status ? cached?.bytes : nil }
            if let cached { return HTTPResponse(status: 200, headers: HTTPResponse.jsonHeaders, body: .bytes(cached)) }
            return json(status)
        default:
            return nil
        }
    }

    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        if request.context is APNsDoorRequestMarker {
            return await APNsDoor.respond(
                request,
                accept: { token in try await service.acceptAPNsRequest(token: token, headers: request.head.headers, body: request.body, now: Date()) },
                failure: { [log] error, _ in
                    log.warning("APNs endpoint: \(error)")
                    return nil
                })
        }
        if request.context is WebPages.Request {
            if request.head.path.hasPrefix(WebPages.iconPrefix) {
                return WebPages.icon(request.head, sessions: webSessions, registry: service.registry)
            }
            return await WebPages.attachment(request.head, links: attachmentLinks, service: service)
        }
        switch Self.match(request) {
        case .none:
            return errorResponse(APIError(.unknownRoute, "chimed has no such route; GET /v1/openapi.json lists them"))
        case .wrongMethod(let allowed):
            var response = errorResponse(APIError(.methodNotAllowed, "this route does not take \(request.head.method)"))
            response.headers.append(("Allow", allowed.map(\.rawValue).joined(separator: ", ")))
            return response
        case .route(let route, let parameters):
            do {
                return try await perform(route, APIRequest(request: request, parameters: parameters))
            } catch let error as APIError {
                return errorResponse(error)
            } catch let error as ChimeError {
                return errorResponse(APIError(error))
            } catch let error as any StorageError where error.storageProblem != nil {
                // What the user can fix, said as such; the log keeps the file and the call.
                log.warning("\(request.head.method) \(route.template) failed: \(error)")
                let problem = error.storageProblem!
                return errorResponse(APIError(problem == .full ? .storageFull : .storageNotWritable, problem.advice + "; nothing was changed"))
            } catch {
                log.warning("\(request.head.method) \(route.template) failed: \(error)")
                return errorResponse(APIError(.internalError, "chimed could not do this (its log says why); nothing was changed"))
            }
        }
    }

    /// The route `screen` matched, or matched now for a request that did not go through it.
    private static func match(_ request: HTTPRequest) -> Route.Match {
        request.context as? Route.Match ?? Route.match(method: request.head.method, path: request.head.path)
    }

    // MARK: Routes

    private func perform(_ route: Route, _ request: APIRequest) async throws -> HTTPResponse {
        switch route {
        case .status:
            let status = try await service.status()
            return json(status)
        case .openAPI:
            return HTTPResponse(status: 200, headers: HTTPResponse.jsonHeaders, body: .bytes(OpenAPIDocument.bytes))
        case .events:
            return stream(try service.openListStream(lastEventID: request.lastEventID))
        case .focus:
            return json(service.focus())
        case .setFocus:
            return json(try await service.setFocus(try request.body(FocusState.self)))
        case .apps:
            return json(try await service.apps())
        case .app:
            return json(try await service.app(try request.app))
        case .registerApp:
            return json(try await service.registerApp(try request.app, try request.body(AppRegistration.self)))
        case .requestAuthorization:
            return json(try await service.requestAuthorization(try request.app, try request.body(AuthorizationRequest.self)))
        case .decideAuthorization:
            return json(try await service.decideAuthorization(try request.app, try request.body(AuthorizationDecision.self)))
        case .settings:
            return json(try await service.settings(try request.app))
        case .updateSettings:
            return json(try await service.updateSettings(try request.app, try request.body(NotificationSettings.self)))
        case .categories:
            return json(try await service.categories(try request.app))
        case .setCategories:
            return json(try await service.setCategories(try request.app, try request.body(CategoryList.self)))
        case .badge:
            return json(try await service.setBadge(try request.app, try request.body(BadgeCount.self)))
        case .allPending:
            return json(try await service.pending(nil, try request.page(), upcoming: try request.count("upcoming")))
        case .pending:
            return json(try await service.pending(try request.app, try request.page(), upcoming: try request.count("upcoming")))
        case .addPending:
            return added(try await service.add(try request.app, try request.body(AddRequests.self)), for: request, status: 201)
        case .replacePending:
            let notificationRequest = try request.body(NotificationRequest.self)
            guard notificationRequest.identifier == (try request.parameter("id")) else {
                throw APIError(.invalidParameters, field: "identifier", "the request's identifier must be the one in the path")
            }
            return added(try await service.add(try request.app, AddRequests(requests: [notificationRequest])), for: request, status: 200)
        case .removePending:
            return json(try await service.removePending(try request.app, try request.body(RemoveSelection.self)))
        case .removeOnePending:
            return json(try await service.removePending(try request.app, RemoveSelection(identifiers: [try request.parameter("id")])))
        case .allDelivered:
            return json(try await service.delivered(nil, try request.page()))
        case .delivered:
            return json(try await service.delivered(try request.app, try request.page()))
        case .removeDelivered:
            return json(try await service.removeDelivered(try request.app, try request.body(RemoveSelection.self)))
        case .removeOneDelivered:
            return json(try await service.removeDelivered(try request.app, RemoveSelection(identifiers: [try request.parameter("id")])))
        case .center:
            let links = attachmentLinks
            return json(
                try await service.center(try request.page()) { app, notification, attachment in
                    let link = links.path(for: .init(app: app, notification: notification, attachment: attachment), now: Date())
                    return (link.path, link.expires)
                })
        case .respond:
            return json(try await service.respond(try request.app, notification: try request.parameter("id"), action: try request.body(WireUserAction.self)))
        case .webLogin:
            guard let url = webLoginURL() else {
                throw APIError(.unavailable, "chimed serves no loopback address (it was started with --http none), and the web center needs one")
            }
            let lifetime = TimeInterval(WebSessions.codeLifetime.components.seconds)
            return json(WebLogin(url: url, expiresAt: Date().addingTimeInterval(lifetime)))
        case .apnsKey:
            return json(try service.apnsKey())
        case .setAPNsKey:
            return json(try service.setAPNsKey(try request.body(APNsKeyBody.self)))
        case .removeAPNsKey:
            try service.removeAPNsKey()
            return json(Empty())
        case .apnsDeviceToken:
            return json(try service.apnsDeviceToken(try request.app))
        case .apnsDoor:
            // Screened as APNs' endpoint before it is matched as a route: only reached without `screen`.
            throw APIError(.unknownRoute, "the APNs-compatible endpoint answers only requests it screened")
        case .webPush:
            return json(try await pushing().status())
        case .subscribeWebPush:
            let origin = access.withLock { $0.webOrigin }
            return json(try await pushing().subscribe(try request.body(WebPushAddress.self), origin: origin), status: 201)
        case .unsubscribeWebPush:
            try await pushing().unsubscribe(id: try request.parameter("id"))
            return json(Empty())
        case .appEvents:
            let subscription = try await service.openAppStream(
                try request.app, foreground: try request.flag("foreground"), decidesResponses: try request.flag("decides"),
                lastEventID: request.lastEventID)
            return stream(subscription)
        case .answerQuestion:
            guard let question = Int(try request.parameter("question")) else {
                throw APIError(.invalidParameters, field: "question", "a question is a number")
            }
            try service.answer(try request.app, question: question, try request.body(QuestionAnswer.self))
            return json(Empty())
        case .queuedResponses:
            return json(try await service.queuedResponses(try request.app, limit: try request.page().limit))
        case .acknowledgeResponse:
            try await service.acknowledge(try request.app, delivery: try request.parameter("delivery"), try request.optionalBody(Acknowledgment.self) ?? Acknowledgment())
            return json(Empty())
        }
    }

    /// Marks a request `screen` admitted to APNs' endpoint.
    struct APNsDoorRequestMarker: Sendable {}

    private func pushing() throws(APIError) -> any BrowserPushing {
        guard let browserPush else { throw APIError(.unavailable, "this daemon does not push to browsers") }
        return browserPush
    }

    // MARK: Answers

    private func json(_ value: some Encodable, status: Int = 200) -> HTTPResponse {
        do {
            let bytes = Array(try WireFormat.encoder().encode(value))
            if let status = value as? StatusResult { encodedStatus.withLock { $0 = (status, bytes) } }
            return HTTPResponse(status: status, headers: HTTPResponse.jsonHeaders, body: .bytes(bytes))
        } catch {
            log.warning("an answer could not be encoded: \(error)")
            return errorResponse(APIError(.internalError, "chimed could not encode its answer"))
        }
    }

    /// An add's answer; without the stored requests when the client asked for the minimal one.
    private func added(_ result: AddResult, for request: APIRequest, status: Int) -> HTTPResponse {
        guard request.prefersMinimalReturn else { return json(result, status: status) }
        var minimal = result
        minimal.pending = nil
        var response = json(minimal, status: status)
        response.headers.append(("Preference-Applied", "return=minimal"))
        return response
    }

    private func stream(_ subscription: EventHub.Subscription) -> HTTPResponse {
        .eventStream(subscription.body)
    }

    func errorResponse(_ error: APIError) -> HTTPResponse {
        .apiError(error)
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
