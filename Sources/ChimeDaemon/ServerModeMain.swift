import ChimeAPI
import ChimeDelivery
import ChimePostgres
import ChimeServer
import ChimeServerMode
import Foundation

/// `chimed --server`: one node of server mode, until SIGTERM or SIGINT; and `--create-tenant`.
enum ServerModeMain {
    static func serve(_ configuration: DaemonConfiguration, log: DaemonLog) async throws {
        guard let conninfo = configuration.database, let http = configuration.http else { throw DaemonError("--server needs --database and --http") }
        let signals = SignalSources(log: log)
        let descriptors = FileDescriptorLimit.raise()
        let database: PostgresDatabase
        do {
            database = try await PostgresNotificationStore.open(conninfo: conninfo, configuration: .init(connections: 8))
        } catch {
            throw DaemonError("cannot open the database: \(error)")
        }
        let name = configuration.nodeName ?? "\(ProcessInfo.processInfo.hostName)/\(getpid())"
        var nodeConfiguration = ServerNode.Configuration(name: name)
        if let retries = configuration.webhookRetries { nodeConfiguration.deliveries.schedule = retries }
        nodeConfiguration.deliveries.operatorAllowed = configuration.webhookAllowed.compactMap(IPNetwork.init)
        nodeConfiguration.deliveries.sender = WebhookSender(
            timeout: .seconds(configuration.webhookTimeout), certificateAuthorities: configuration.outboundCertificateAuthorities)
        if let url = configuration.apnsURL {
            nodeConfiguration.deliveries.apns.production = url
            nodeConfiguration.deliveries.apns.development = url
        }
        nodeConfiguration.deliveries.apns.certificateAuthorities = configuration.apnsCertificateAuthorities
        nodeConfiguration.deliveries.apns.timeout = .seconds(configuration.apnsTimeout)
        let node = ServerNode(database: database, configuration: nodeConfiguration, log: log)

        if !http.isLoopback {
            log.warning("serving server mode's API on \(http), which other machines can reach, over plain HTTP (--http-allow-remote): put it behind a TLS proxy")
        }
        var server = HTTPServer.Configuration()
        server.connectionLimit = max(16, min(configuration.maximumConnections, descriptors - 128))
        server.idleTimeout = configuration.idleTimeout
        server.maximumBodySize = RecipientBatch.maximumBodySize
        let socket = try ListeningSocket.tcp(host: http.host, port: http.port)
        node.start()
        let httpServer = try HTTPServer(listening: socket, configuration: server, handler: node.handler, log: log)
        log.info(
            "chimed \(WireFormat.version) server mode node \(name) listening on http://\(http.host):\(socket.port ?? http.port) (schema \(PostgresNotificationStore.schemaVersion))"
        )

        for await signal in signals.stream where signal != SIGHUP {
            log.info("stopping on \(signal == SIGTERM ? "SIGTERM" : "SIGINT")")
            break
        }
        await httpServer.stop()
        await node.stop()
        await database.close()
        log.info("stopped")
    }

    static func createTenant(database conninfo: String, tenant: String, name: String) async -> Int32 {
        do {
            let database = try await PostgresNotificationStore.open(conninfo: conninfo, configuration: .init(connections: 1))
            let directory = TenantDirectory(database: database)
            try await directory.createTenant(tenant, name: name)
            let (secret, _) = try await directory.issueKey(tenant: tenant, name: "first admin key", scopes: [.admin])
            await database.close()
            FileHandle.standardError.write(Data("chimed: tenant \(tenant) created; its admin key (shown only now):\n".utf8))
            print(secret)
            return 0
        } catch {
            FileHandle.standardError.write(Data("chimed: error: \(error)\n".utf8))
            return 1
        }
    }
}
