import ChimeCore
import Foundation
import Testing

@Suite struct PresentationOptionsTests {
    @Test(arguments: [
        (PresentationOptions.badge, UInt(1)), (.sound, 2), (.alert, 4), (.list, 8), (.banner, 16),
    ])
    func optionsHaveApplesRawValues(option: PresentationOptions, raw: UInt) {
        #expect(option.rawValue == raw)
    }

    @Test func theDeprecatedAlertMeansBannerAndList() {
        #expect(PresentationOptions.alert.showsBanner)
        #expect(PresentationOptions.alert.showsInList)
    }

    @Test func bannerAndListAreIndependent() {
        #expect(PresentationOptions.banner.showsBanner && !PresentationOptions.banner.showsInList)
        #expect(PresentationOptions.list.showsInList && !PresentationOptions.list.showsBanner)
        let silent: PresentationOptions = [.sound, .badge]
        #expect(!silent.showsBanner && !silent.showsInList)
    }

    @Test func encodesAsOptionNamesInApplesOrder() throws {
        let options: PresentationOptions = [.banner, .sound, .list]
        let data = try JSONEncoder().encode(options)
        #expect(String(decoding: data, as: UTF8.self) == #"["sound","list","banner"]"#)
        #expect(try JSONDecoder().decode(PresentationOptions.self, from: data) == options)
        #expect(try JSONDecoder().decode(PresentationOptions.self, from: Data("16".utf8)) == .banner)
    }
}
