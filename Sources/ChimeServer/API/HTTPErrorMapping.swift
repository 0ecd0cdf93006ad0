public import ChimeAPI
import ChimeCore

/// The HTTP status of every error the API answers with: the one place where errors become statuses.
public enum HTTPErrorMapping {
    public static func status(of error: APIError) -> Int {
        if let chime = error.chimeError { return status(of: chime.code) }
        switch error.apiCode {
        case .unauthenticated?: return 401
        case .forbidden?: return 403
        case .unknownRoute?, .notFound?: return 404
        case .methodNotAllowed?: return 405
        case .payloadTooLarge?: return 413
        case .unsupportedMediaType?: return 415
        case .tooManyRequests?: return 429
        case .unavailable?: return 503
        case .idempotencyKeyReused?: return 422
        case .malformedRequest?, .invalidParameters?: return 400
        default: return 500
        }
    }

    /// The engine's errors: the user's decision forbids (403), the notification is gone (404), the
    /// notification's state does not allow the action now (409), anything else is the request's own
    /// (400) — an attachment that cannot be moved into the store included: its file is missing or
    /// unreadable far more often than the store's disk is full, and Apple reports both the same way.
    static func status(of code: ChimeError.Code) -> Int {
        switch code {
        case .notificationsNotAllowed: 403
        case .notificationNotFound: 404
        case .actionNotAvailable, .sessionLocked: 409
        default: 400
        }
    }
}
