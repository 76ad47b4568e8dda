import Foundation
import StitcherTesting
import Testing

@testable import Stitcher

private final class Page: Sendable { init() {} }

/// The "nearest registrations" a missing dependency's message lists cost nothing until the
/// message is read, and stay linear in the names' length when it is: names often come from
/// input (routes, configuration).
@Suite(.isolatedDependencyGraph)
struct DiagnosisCostTests {
    /// The textbook dynamic program, as the reference for the banded one.
    private func referenceDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var row = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = row
        }
        return previous[b.count]
    }

    @Test func theBandedDistanceAgreesWithTheFullOneUpToItsLimit() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcé🙂")
        for _ in 0..<2_000 {
            let a = (0..<Int.random(in: 0...9, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let b = (0..<Int.random(in: 0...9, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            for limit in 0...3 {
                let expected = min(referenceDistance(a, b), limit + 1)
                #expect(editDistance(a, b, limit: limit) == expected, "\(String(a)) / \(String(b)), limit \(limit)")
            }
        }
    }

    @Test func closeSpellingsAreStillFound() {
        #expect(isCloseSpelling("paymentGateway", "PaymentGetway"))
        #expect(isCloseSpelling("cache", "user-cache"))
        #expect(!isCloseSpelling("cache", "queue"))
        let long = String(repeating: "x", count: 900)
        #expect(isCloseSpelling(long + "a", long + "b"), "banded: long names still compare")
        let tooLong = String(repeating: "x", count: longestComparedSpelling)
        #expect(!isCloseSpelling(tooLong + "a", tooLong + "b"), "beyond the cutoff nothing is compared")
    }

    @Test(.timeLimit(.minutes(1)))
    func missesByNamesCloseToAMegabyteNameStayCheap() throws {
        let long = String(repeating: "route/", count: 180_000)
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Page() }.named(long)
                Dependency { Page() }.named(long + "s")
                Dependency { Page() }.named("home")
            })
        #expect(throws: Never.self) { _ = try DependencyGraph.inject(byName: long) as Page }
        for suffix in ["x", "/", "ss", "!"] {
            for _ in 0..<50 { #expect((try? DependencyGraph.inject(byName: long + suffix) as Page) == nil) }
        }
        // Reading the message finds the nearest registrations, still within bounds.
        do {
            let _: Page = try DependencyGraph.inject(byName: "hme")
            Issue.record("expected a missing dependency")
        } catch let error as InjectionError {
            #expect(error.failureReason?.contains("Name[home]") == true)
        }
        do {
            let _: Page = try DependencyGraph.inject(byName: long + "x")
        } catch let error as InjectionError {
            #expect(error.failureReason != nil)
        }
    }
}
