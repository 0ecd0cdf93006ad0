import ChimeCore
import ChimeCrypto
import ChimeServer
import Dispatch
import Foundation
import Synchronization

extension FuzzTarget {
    /// The APNs-compatible endpoint's reading of a request (`APNsDoor.read`): the device token, the
    /// headers, the provider token (a JWT: base64url, JSON, an ES256 signature) and the payload. Every
    /// refusal is one of APNs' documented status and reason pairs under a lower-case UUID `apns-id`; an
    /// accepted request passed each check on the way (token, topic, fresh `iat`, payload within 4 KB).
    ///
    /// The input is the device token on the first line, then `name: value` header lines, an empty line, and
    /// the body. The provider key's owner checks each token's signature against a fixed key, then trusts it
    /// whatever the answer, so the fuzzer reaches the checks after the signature. A token starting `0000`
    /// names a device turned off.
    static let apnsDoor = FuzzTarget("apns-door", "the APNs-compatible endpoint's requests (APNsDoor: headers, provider JWT, payload)") { bytes in
        guard let (token, headers, body) = apnsRequest(bytes) else { return .refused }
        let reading = waitFor {
            try? await APNsDoor.read(
                token: token, headers: headers, body: body, now: doorNow,
                owner: { team, keyID, signedBy in
                    _ = signedBy(doorKey)
                    return "\(team)/\(keyID)"
                },
                device: { _, token in
                    APNsDoorDevice(recipient: "", topic: "com.example.app", enabled: !token.hasPrefix("0000"), disabled: doorNow.addingTimeInterval(-60))
                })
        }
        guard let reading else { return .violated("read threw though its owner and device never do") }
        switch reading {
        case .refused(let answer):
            guard isLowercaseUUID(answer.apnsID) else { return .violated("apns-id \(answer.apnsID)") }
            guard let reason = answer.reason, documentedRefusals[answer.status]?.contains(reason) == true else {
                return .violated("\(answer.status) \(answer.reason ?? "without a reason") is not one of APNs' answers")
            }
            guard (answer.status == 410) == (answer.timestamp != nil) else { return .violated("a timestamp with \(answer.status)") }
            return .refused
        case .accepted(_, let device, let request, let apnsID, let given):
            guard isLowercaseUUID(apnsID), given == (headers["apns-id"] != nil) else { return .violated("apns-id \(apnsID)") }
            if given, headers["apns-id"]?.lowercased() != apnsID { return .violated("the given apns-id became \(apnsID)") }
            guard device.enabled, headers["apns-topic"] == device.topic else { return .violated("accepted for another topic or a device turned off") }
            guard (64...200).contains(token.utf8.count), token.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) }) else { return .violated("accepted the device token \(token.debugDescription)") }
            guard body.count <= APNsPayload.maximumSize else { return .violated("accepted \(body.count) bytes") }
            guard request.identifier == headers["apns-collapse-id"] ?? apnsID else { return .violated("the request's identifier is \(request.identifier)") }
            return .held
        }
    }

    private static let doorNow = Date(timeIntervalSince1970: 1_796_637_600)
    /// Any valid P-256 key: no fuzzed token is signed by it, but each signature is checked against it.
    private static let doorKey = P256PrivateKey.generate().publicKey

    /// APNs' refusals ("Handling notification responses from APNs"), by status.
    private static let documentedRefusals: [Int: Set<String>] = [
        400: [
            "BadCollapseId", "BadDeviceToken", "BadExpirationDate", "BadMessageId", "BadPriority", "BadTopic", "DeviceTokenNotForTopic",
            "DuplicateHeaders", "IdleTimeout", "InvalidPushType", "MissingDeviceToken", "MissingTopic", "PayloadEmpty", "TopicDisallowed",
            // Chime's own, for a payload its strict reader refuses: APNs takes any JSON object.
            "BadPayload",
        ],
        403: ["BadCertificate", "BadCertificateEnvironment", "ExpiredProviderToken", "Forbidden", "InvalidProviderToken", "MissingProviderToken"],
        410: ["Unregistered"],
        413: ["PayloadTooLarge"],
    ]

    /// 8-4-4-4-12 lower-case hexadecimal digits, checked here (Foundation's reader is more lenient).
    private static func isLowercaseUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        return bytes.enumerated().allSatisfy { index, byte in
            [8, 13, 18, 23].contains(index) ? byte == UInt8(ascii: "-") : (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte)
        }
    }

    /// The token line, the headers (names in lower case, as the server hands them) and the body.
    private static func apnsRequest(_ bytes: [UInt8]) -> (String, [String: String], [UInt8])? {
        guard let end = bytes.firstRange(of: Array("\n\n".utf8)), let head = text(Array(bytes[..<end.lowerBound])) else { return nil }
        var lines = head.split(separator: "\n", omittingEmptySubsequences: false)
        let token = String(lines.removeFirst())
        var headers: [String: String] = [:]
        for line in lines {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            headers[parts[0].lowercased()] = String(parts[1].drop { $0 == " " })
        }
        return (token, headers, Array(bytes[end.upperBound...]))
    }
}

/// The value of `work`, waited for on this thread (libFuzzer calls a target synchronously, on its own
/// thread). This thread must not be one of Swift's concurrency pool, which `work` runs on: the ordinary
/// tests call the targets from a thread of their own (`SeedCorpusTests`).
func waitFor<Value: Sendable>(_ work: @escaping @Sendable () async -> Value) -> Value {
    let result = Mutex<Value?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let value = await work()
        result.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    return result.withLock { $0! }
}
