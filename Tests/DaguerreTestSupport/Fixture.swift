// Where the tests find their photographs and third-party files.
import Foundation

/// The test photographs the repository carries.
public enum Fixture {
    public static func kodim(_ n: Int) -> String {
        Judge.testdata.appendingPathComponent("kodak24").appendingPathComponent(String(format: "kodim%02d.png", n)).path
    }
    public static var thirdParty: URL { Judge.testdata.appendingPathComponent("third-party") }
}
