import ChimeDelivery
import Foundation

extension FuzzTarget {
    /// APNs' answers as the provider reads them: a reason when the body says one, and a timestamp only
    /// when it is a time the ledger can keep. The first two bytes are the status.
    static let apnsAnswer = FuzzTarget("apns-answer", "APNs' answers (APNsAnswer: reason, timestamp)") { bytes in
        guard bytes.count >= 2 else { return .refused }
        let status = 200 + (Int(bytes[0]) << 8 | Int(bytes[1])) % 400
        let answer = APNsAnswer(status: status, apnsID: nil, body: Array(bytes.dropFirst(2)))
        guard answer.status == status else { return .violated("the status changed") }
        if let timestamp = answer.timestamp {
            let seconds = timestamp.timeIntervalSince1970
            guard seconds.isFinite, seconds >= 0, seconds < 253_402_300_800 else { return .violated("a timestamp of \(seconds) s was kept") }
        }
        return answer.reason == nil && answer.timestamp == nil ? .refused : .held
    }
}
