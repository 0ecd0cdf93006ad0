/// APNs bodies from the seeds (`shared/seeds/`), and bodies of an exact size in bytes.
enum APNsFixtures {
    // MARK: - Seed 001: actionable notifications

    /// The meeting invite of seed 001 as valid JSON: its alert and the category whose actions it offers.
    static let meetingInvite = #"""
        {
            "aps" : {
                "alert" : {
                    "title" : "미팅 초대",
                    "body" : "일시 : 2022/04/05 오후 2시"
                },
                "category" : "meetingCategory"
            }
        }
        """#

    /// Seed 001's literal as written, with a trailing comma after `body` (its ✅ margin mark left out).
    static let meetingInviteAsWritten = #"""
        {
            "aps" : {
                "alert" : {
                    "title" : "미팅 초대",
                    "body" : "일시 : 2022/04/05 오후 2시",
                },
                "category" : "meetingCategory"
            }
        }
        """#

    // MARK: - Seed 002: grouped notifications and critical alerts

    /// The grouped photo of seed 002 with `thread-id` where APNs reads it: directly in `aps`.
    static let groupedPhoto = #"""
        {
        "aps" : {
        "alert" : {
        "title" : "New Photo",
        "body" : "Jane Doe posted a new photo"
        },
        "thread-id": "thread-identifier"
        }
        }
        """#

    /// Seed 002's grouping literal with its trailing commas removed: `thread-id` still sits inside
    /// `alert`, where APNs ignores it.
    static let groupedPhotoWithThreadIDInAlert = #"""
        {
        "aps" : {
        "alert" : {
        "title" : "New Photo",
        "body" : "Jane Doe posted a new photo",
        "thread-id": "thread-identifier"
        }
        }
        }
        """#

    /// Seed 002's grouping literal as written, with three trailing commas.
    static let groupedPhotoAsWritten = #"""
        {
        "aps" : {
        "alert" : {
        "title" : "New Photo",
        "body" : "Jane Doe posted a new photo",
        "thread-id": "thread-identifier",
        },
        },
        }
        """#

    /// Seed 002's critical-alert payload for the low-glucose warning, as written.
    static let lowGlucoseCriticalSound = #"""
        {
        "aps" : {
        "sound": {
        "critical" : 1,
        "name": "warning-sound.aiff",
        "volume": 1.0
        }
        }
        }
        """#

    // MARK: - Sizes

    /// The bytes of `{"aps":{},"pad":""}` around the padding.
    static let paddingFrame = 19

    /// A string that makes `{"aps":{},"pad":"…"}` exactly `size` bytes: as many `filler` characters as
    /// fit, then `x` for the bytes left over.
    static func padding(forBodyOf size: Int, filler: Character) -> String {
        let room = size - paddingFrame
        let fillerBytes = String(filler).utf8.count
        let fillers = room / fillerBytes
        return String(repeating: filler, count: fillers) + String(repeating: "x", count: room - fillers * fillerBytes)
    }

    /// `{"aps":{},"pad":"…"}` of exactly `size` bytes.
    static func body(bytes size: Int, filler: Character) -> String {
        #"{"aps":{},"pad":"\#(padding(forBodyOf: size, filler: filler))"}"#
    }
}
