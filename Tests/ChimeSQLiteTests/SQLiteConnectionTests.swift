import ChimeSQLite
import Foundation
import Testing

/// Values, statements and errors on one connection to a real database file.
@Suite("SQLite connection")
struct SQLiteConnectionTests {
    let directory: TemporaryDirectory
    let db: SQLiteConnection

    init() throws {
        directory = try TemporaryDirectory()
        db = try SQLiteConnection(path: directory.path("connection.sqlite"), flags: [.readWrite, .create])
        try db.execute("""
            CREATE TABLE value(id INTEGER PRIMARY KEY, v);
            CREATE TABLE person(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
            """)
    }

    static let values: [SQLiteValue] = [
        .null,
        .integer(0), .integer(-1), .integer(.min), .integer(.max),
        .real(3.141592653589793), .real(-2.5e-300), .real(.infinity), .real(-.infinity),
        .text(""), .text("plain"), .text("a\u{0}b\u{0}"), .text("\u{0}"),
        .text("🔔 알림 café — \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467} e\u{301}"),
        .blob([]), .blob([0]), .blob([0, 1, 0, 255]), .blob(Array(repeating: 0xAB, count: 100_000)),
    ]

    @Test(arguments: values)
    func everyValueKindRoundTripsExactly(value: SQLiteValue) throws {
        try db.execute("INSERT INTO value(v) VALUES (?)", arguments: [value])
        let rows = try db.query("SELECT v FROM value WHERE id = ?", arguments: [.integer(db.lastInsertRowID)])
        #expect(rows == [[value]])
    }

    @Test func textWithEmbeddedNulsKeepsEveryByteInTheFile() throws {
        let text = "a\u{0}b🔔\u{0}"
        try db.execute("INSERT INTO value(v) VALUES (?)", arguments: [.text(text)])
        let rows = try db.query("SELECT typeof(v), length(CAST(v AS BLOB)), hex(v) FROM value")
        #expect(rows == [[.text("text"), .integer(Int64(text.utf8.count)), .text("610062F09F949400")]])
    }

    @Test func anEmptyBlobIsStoredAsABlobAndNullAsNull() throws {
        try db.execute("INSERT INTO value(id, v) VALUES (1, ?), (2, ?), (3, ?)", arguments: [.blob([]), .null, .text("")])
        let rows = try db.query("SELECT typeof(v), v FROM value ORDER BY id")
        #expect(rows == [[.text("blob"), .blob([])], [.text("null"), .null], [.text("text"), .text("")]])
    }

    /// Bytes bound from part of a larger buffer are stored as exactly that part; none as an empty blob.
    @Test func bytesBoundFromABufferAreStoredAsThatPartAlone() throws {
        let buffer: [UInt8] = [9, 9, 0, 1, 0, 255, 9]
        let insert = try db.prepare("INSERT INTO value(id, v) VALUES (?, ?)")
        try buffer.withUnsafeBytes { bytes in
            // The last has no address at all: SQLite would take a NULL pointer for NULL.
            let parts = [UnsafeRawBufferPointer(rebasing: bytes[2..<6]), UnsafeRawBufferPointer(rebasing: bytes[3..<3]), bytes, UnsafeRawBufferPointer(start: nil, count: 0)]
            for (id, part) in zip(1..., parts) {
                try insert.bind(.integer(Int64(id)), at: 1)
                try insert.bind(blob: part, at: 2)
                #expect(try insert.step() == false)
                insert.reset()
            }
            let error = #expect(throws: SQLiteError.self) { try insert.bind(blob: bytes, at: 3) }
            #expect(error?.code == .range)
        }
        let rows = try db.query("SELECT typeof(v), v FROM value ORDER BY id")
        #expect(rows == [[.text("blob"), .blob([0, 1, 0, 255])], [.text("blob"), .blob([])], [.text("blob"), .blob(buffer)], [.text("blob"), .blob([])]])
    }

    @Test func literalsMakeArguments() throws {
        try db.execute("INSERT INTO value(id, v) VALUES (?, ?)", arguments: [7, "seven"])
        try db.execute("INSERT INTO value(id, v) VALUES (?, ?)", arguments: [8, 0.5])
        #expect(try db.query("SELECT v FROM value ORDER BY id") == [[.text("seven")], [.real(0.5)]])
    }

    @Test func aStatementRunsAgainWithNewArguments() throws {
        let insert = try db.prepare("INSERT INTO person(name) VALUES (?)")
        #expect(insert.parameterCount == 1)
        for name in ["Ada", "Grace", "Edsger"] {
            try insert.run([.text(name)])
            #expect(db.changes == 1)
        }
        #expect(db.lastInsertRowID == 3)

        let select = try db.prepare("SELECT id, name FROM person WHERE id >= ? ORDER BY id")
        #expect(select.columnCount == 2)
        #expect(select.columnName(1) == "name")
        #expect(try select.rows([2]) == [[2, "Grace"], [3, "Edsger"]])
        try select.bind([3])
        #expect(try select.step())
        #expect(select.row() == [3, "Edsger"])
        #expect(try select.step() == false)
    }

    @Test func aScriptRunsEveryStatementInOrder() throws {
        try db.execute("""
            -- comments and blank statements are skipped
            INSERT INTO person(name) VALUES ('Ada');;
            UPDATE person SET name = 'Ada Lovelace' WHERE name = 'Ada';
            """)
        #expect(try db.query("SELECT name FROM person") == [["Ada Lovelace"]])
    }

    @Test func aUniqueViolationCarriesItsCodesAndNotTheArguments() throws {
        let secret = "Meet me at the old mill at 9"
        try db.execute("INSERT INTO person(name) VALUES (?)", arguments: [.text(secret)])
        let error = #expect(throws: SQLiteError.self) {
            try db.execute("INSERT INTO person(name) VALUES (?)", arguments: [.text(secret)])
        }
        #expect(error?.code == .constraint)
        #expect(error?.extendedCode == .constraintUnique)
        #expect(error?.sql == "INSERT INTO person(name) VALUES (?)")
        #expect(error?.sqliteMessage == "UNIQUE constraint failed: person.name")
        let description = try #require(error?.description)
        #expect(description.contains("constraintUnique"))
        #expect(!description.contains(secret))
        #expect(!description.contains("old mill"))
    }

    @Test func aNotNullViolationCarriesItsExtendedCode() throws {
        let error = #expect(throws: SQLiteError.self) {
            try db.execute("INSERT INTO person(name) VALUES (?)", arguments: [.null])
        }
        #expect(error?.code == .constraint)
        #expect(error?.extendedCode == .constraintNotNull)
    }

    @Test func aSyntaxErrorCarriesTheErrorCodeAndTheStatement() throws {
        let error = #expect(throws: SQLiteError.self) {
            try db.execute("SELEC name FROM person")
        }
        #expect(error?.code == .error)
        #expect(error?.sql == "SELEC name FROM person")
        #expect(error?.sqliteMessage?.contains("syntax error") == true)
        #expect(error?.description.hasPrefix("SQLiteError.error: could not prepare a statement") == true)
    }

    @Test func aFailingScriptStopsAtTheStatementItNames() throws {
        let error = #expect(throws: SQLiteError.self) {
            try db.execute("""
                INSERT INTO person(name) VALUES ('Ada');
                INSERT INTO nowhere(name) VALUES ('Grace');
                INSERT INTO person(name) VALUES ('Edsger');
                """)
        }
        #expect(error?.sql == "INSERT INTO nowhere(name) VALUES ('Grace');")
        #expect(try db.query("SELECT name FROM person") == [["Ada"]])
    }

    @Test(arguments: [[], [SQLiteValue.integer(1), .integer(2)]])
    func aWrongNumberOfArgumentsIsRefusedBeforeRunning(arguments: [SQLiteValue]) throws {
        let error = #expect(throws: SQLiteError.self) {
            try db.execute("INSERT INTO value(v) VALUES (?)", arguments: arguments)
        }
        #expect(error?.code == .misuse)
        #expect(error?.message == "expected 1 arguments, got \(arguments.count)")
        #expect(try db.query("SELECT count(*) FROM value") == [[0]])
    }

    @Test func bindingOutsideTheParametersIsRefused() throws {
        let statement = try db.prepare("SELECT ?")
        #expect(throws: SQLiteError.self) { try statement.bind(.integer(1), at: 2) }
        #expect(throws: SQLiteError.self) { try statement.bind(.integer(1), at: 0) }
    }

    @Test func preparingSeveralStatementsAtOnceIsRefused() throws {
        let error = #expect(throws: SQLiteError.self) {
            _ = try db.prepare("SELECT 1; DELETE FROM person")
        }
        #expect(error?.code == .misuse)
        #expect(try db.prepare("SELECT 1; -- trailing comment\n").rows() == [[1]])
    }

    @Test func openingAMissingFileWithoutCreateFails() throws {
        let error = #expect(throws: SQLiteError.self) {
            _ = try SQLiteConnection(path: directory.path("missing.sqlite"), flags: [.readWrite])
        }
        #expect(error?.code == .cantOpen)
        #expect(!FileManager.default.fileExists(atPath: directory.path("missing.sqlite")))
    }

    @Test func transactionStateIsReported() throws {
        #expect(!db.isInTransaction)
        try db.execute("BEGIN")
        #expect(db.isInTransaction)
        try db.execute("ROLLBACK")
        #expect(!db.isInTransaction)
    }
}
