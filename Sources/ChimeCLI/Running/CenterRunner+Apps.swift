import ChimeClient
import ChimeCore
import ChimeAPI
import Foundation

extension CenterRunner {
    // MARK: apps

    func run(_ apps: AppsCommand) async throws -> String {
        switch apps {
        case .list(let json):
            let list = try await client.apps()
            if json {
                return Output.json(list.map {
                    AppOutput(
                        identifier: $0.entry.identifier, name: $0.entry.displayName, authorization: Output.englishName($0.settings.authorizationStatus),
                        connected: $0.connected, queuedResponses: $0.queuedResponses, launchCommand: $0.entry.launchCommand, badge: $0.badge,
                        authorizationQuestion: $0.authorizationQuestion?.options)
                })
            }
            guard !list.isEmpty else { return localized("list.noApps") + "\n" }
            return Output.table(
                [localized("column.app"), localized("column.name"), localized("column.notifications"), localized("column.running"), localized("column.waiting")],
                list.map {
                    [$0.entry.identifier, $0.entry.displayName ?? "",
                     $0.authorizationQuestion == nil ? Output.name($0.settings.authorizationStatus) : localized("status.asking"),
                     localized($0.connected ? "yes" : "no"), String($0.queuedResponses)]
                }, style: style,
                tint: { column, text in
                    guard column == 2 else { return nil }
                    return text == Output.name(.denied) ? "31" : text == Output.name(.authorized) ? "32" : nil
                })
        case .allow(let app), .deny(let app):
            let allowed = apps == .allow(app)
            let settings = try await client.setAuthorization(app: app, allowed: allowed)
            return localized("apps.changed", Output.shown(app), Output.name(allowed ? .authorized : .denied), Output.name(settings.authorizationStatus)) + "\n"
        case .settings(let app, let changes, let json):
            var settings = try await client.notificationSettings(app: app)
            if !changes.isEmpty {
                for change in changes { try change.apply(to: &settings, app: app) }
                try await client.updateSettings(settings, app: app)
                settings = try await client.notificationSettings(app: app)
            }
            return json ? Output.json(settings) : Output.settings(settings, app: app)
        case .register(let app, let displayName, let iconPath, let launchCommand):
            try await client.registerApp(AppEntry(identifier: app, displayName: displayName, iconPath: iconPath, launchCommand: launchCommand))
            return "Registered \(Output.shown(app))" + (launchCommand.map { ": launched with \(Output.shown($0.joined(separator: " ")))" } ?? "") + ".\n"
        case .apnsToken(let app, let json):
            let token = try await client.apnsDeviceToken(app: app)
            return json ? Output.json(token) : token.token + "\n"
        case .apnsKey(let action, let json):
            let none = localized("apps.apnsKeyNone")
            switch action {
            case .show:
                let key: APNsKeySummary?
                do {
                    key = try await client.apnsKey()
                } catch let error as APIError where error.apiCode == .notFound {
                    key = nil
                }
                return json ? Output.json(ServerAPNsKeyOutput(apns: key)) : ServerRunner.describe(key, none: none) + "\n"
            case .set(let team, let keyID, let path):
                let pem = try APNsKeyAction.readKey(path, command: AppsCommand.name)
                let key = try await client.setAPNsKey(APNsKeyBody(teamId: team, keyId: keyID, key: pem))
                return json ? Output.json(ServerAPNsKeyOutput(apns: key)) : ServerRunner.describe(key, none: none) + "\n"
            case .remove:
                try await client.removeAPNsKey()
                return json ? Output.json(ServerAPNsKeyOutput(apns: nil)) : localized("server.apnsKeyRemoved") + "\n"
            }
        }
    }

    // MARK: categories

    func run(_ categories: CategoriesCommand) async throws -> String {
        switch categories {
        case .set(let app, let file):
            let data = try UserFile.read(file, field: "file")
            let decoded: [NotificationCategory]
            do {
                decoded = try JSONDecoder().decode([NotificationCategory].self, from: data)
            } catch let error as ChimeError {
                throw error
            } catch {
                throw ChimeError(.invalidPayload, "\(file) is not a JSON array of categories: \(DecodingProblem.describe(error))")
            }
            try await client.setCategories(decoded, app: app)
            return "Registered \(decoded.count == 1 ? "1 category" : "\(decoded.count) categories") for \(Output.shown(app)).\n"
        case .list(let app, let json):
            let list = try await client.categories(app: app)
            if json { return Output.json(list) }
            guard !list.isEmpty else { return "\(Output.shown(app)) has no categories.\n" }
            return list.map { category in
                let actions = category.actions.map { Output.shown(Output.text($0.title)) + " [\(Output.shown($0.identifier))]" }.joined(separator: ", ")
                return "\(Output.shown(category.identifier)): \(actions.isEmpty ? "no buttons" : actions)\n"
            }.joined()
        }
    }

    // MARK: focus

    func run(_ focus: FocusCommand) async throws -> String {
        let result: FocusState
        switch focus {
        case .on: result = try await client.focus(true)
        case .off: result = try await client.focus(false)
        case .status(let json):
            result = try await client.focus()
            if json { return Output.json(result) }
        }
        var text = localized(result.on ? "focus.on" : "focus.off") + "\n"
        if result.desktopInhibited == true { text += localized("focus.desktopToo") + "\n" }
        return text
    }
}
