public import ChimeCore
public import Foundation

extension NotificationLocalizer {
    /// Loads an app's strings tables from its resources: every `<language>.lproj/<table>.strings` under
    /// `directory` (`en.lproj/Localizable.strings`, `ko.lproj/Localizable.strings`, `Base.lproj/…`), as an
    /// app bundle lays them out.
    ///
    /// ```swift
    /// let localizer = try NotificationLocalizer(contentsOf: appResources)
    /// await engine.setLocalizer(localizer, for: "com.example.tea")
    /// ```
    ///
    /// - Throws: `ChimeError.invalidStringsTable` naming the file (its language folder and name) of the
    ///   first table that cannot be read or parsed. A directory without tables gives an empty localizer.
    public init(contentsOf directory: URL, tableName: String = "Localizable", developmentLanguage: String = "en") throws(ChimeError) {
        var tables: [String: StringsTable] = [:]
        let folders = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        for folder in folders where folder.pathExtension == "lproj" {
            let file = folder.appendingPathComponent(tableName + ".strings")
            guard FileManager.default.fileExists(atPath: file.path) else { continue }
            let name = "\(folder.lastPathComponent)/\(tableName).strings"
            guard let data = try? Data(contentsOf: file) else {
                throw ChimeError(.invalidStringsTable, field: name, "the strings table cannot be read")
            }
            do {
                tables[folder.deletingPathExtension().lastPathComponent] = try StringsTable(data: data)
            } catch {
                throw ChimeError(.invalidStringsTable, field: "\(name) \(error.field ?? "")", error.message)
            }
        }
        self.init(tables: tables, developmentLanguage: developmentLanguage)
    }
}
