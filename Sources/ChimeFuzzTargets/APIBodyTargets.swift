import ChimeAPI
import ChimeCore
import Foundation

extension FuzzTarget {
    /// The JSON bodies of both APIs' routes but the two with targets of their own (`add-requests`,
    /// `recipient-batch`): the first byte picks the body. Bytes it refuses give a typed error (a
    /// `DecodingError`, or Chime's own for a value out of range), which the API answers 400 with the field
    /// at fault; a body it reads writes back and reads the same.
    static let apiBodies = FuzzTarget("api-bodies", "the APIs' other JSON bodies (settings, categories, responses, devices, keys, subscriptions)") { bytes in
        guard let first = bytes.first else { return .refused }
        let body = Data(bytes.dropFirst())
        let reader = apiBodyReaders[Int(first) % apiBodyReaders.count]
        return reader(body)
    }

    /// One reader per body type: decode, and if it reads, write and read again.
    private static let apiBodyReaders: [@Sendable (Data) -> Outcome] = [
        roundTrip(FocusState.self), roundTrip(AppRegistration.self), roundTrip(AuthorizationRequest.self), roundTrip(AuthorizationDecision.self),
        roundTrip(NotificationSettings.self), roundTrip(CategoryList.self), roundTrip(BadgeCount.self), roundTrip(NotificationRequest.self),
        roundTrip(RemoveSelection.self), roundTrip(WireUserAction.self), roundTrip(APNsKeyBody.self), roundTrip(WebPushAddress.self),
        roundTrip(QuestionAnswer.self), roundTrip(RecipientProfileBody.self), roundTrip(DeviceBody.self), roundTrip(DeliveryOutcomeBody.self),
        roundTrip(TenantSettingsBody.self), roundTrip(WebhookAddress.self), roundTrip(WebPushSettingsBody.self), roundTrip(NewAPIKey.self),
    ]

    private static func roundTrip<Body: Codable & Equatable & SendableMetatype>(_: Body.Type) -> @Sendable (Data) -> Outcome {
        { data in
            let body: Body
            do {
                body = try WireFormat.decoder().decode(Body.self, from: data)
            } catch is DecodingError {
                return .refused
            } catch is ChimeError {
                return .refused
            } catch is APIError {
                return .refused
            } catch {
                return .violated("\(Body.self): an untyped error \(type(of: error)): \(error)")
            }
            guard let written = try? WireFormat.encoder().encode(body) else { return .violated("\(Body.self): what was read could not be written") }
            guard let again = try? WireFormat.decoder().decode(Body.self, from: written) else {
                return .violated("\(Body.self): could not read what it wrote: \(String(decoding: written.prefix(500), as: UTF8.self))")
            }
            return again == body ? .held : .violated("\(Body.self): read back differently from \(String(decoding: written.prefix(500), as: UTF8.self))")
        }
    }
}
