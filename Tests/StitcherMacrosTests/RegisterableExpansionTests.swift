import SwiftSyntaxMacrosGenericTestSupport
import Testing

@Suite struct RegisterableExpansionTests {
    @Test func theOnlyInitializerIsRegisteredWithItsParametersAsInstantiationParameters() {
        assertExpansion(
            """
            @Registerable
            public final class Repository {
                init(cache: Int, _ label: String) {}
            }
            """,
            expandedSource: """
                public final class Repository {
                    init(cache: Int, _ label: String) {}

                    public nonisolated static var dependencyRegistration: Dependency<Repository> {
                        Dependency<Repository>(locator: DependencyLocator.type(Repository.self), scope: DependencyScope.automatic(for: Repository.self), eagerness: DependencyEagerness.lazy) { (p0: Int, p1: String) in
                            Repository(cache: p0, p1)
                        }
                    }
                }

                extension Repository: RegisterableDependency, AutoregisterableDependency {
                }
                """
        )
    }

    @Test func thePreferredInitializerWinsAndNamesAndValuesAreExposed() {
        assertExpansion(
            """
            @Registerable(by: .name("clock"), scope: .singleton, eagerness: .eager)
            struct Clock {
                init(offset: Int) {}
                @PreferredInitializer
                init() throws {}
            }
            @Registerable(by: .value(Region.europe))
            struct Pricing {
                init() {}
            }
            """,
            expandedSource: """
                struct Clock {
                    init(offset: Int) {}
                    init() throws {}

                    nonisolated static var dependencyRegistration: Dependency<Clock> {
                        Dependency<Clock>(locator: DependencyLocator.name("clock"), scope: DependencyScope.singleton, eagerness: DependencyEagerness.eager) { () in
                            try Clock()
                        }
                    }

                    nonisolated static var dependencyName: String {
                        DependencyLocator.name("clock").locatedName!
                    }
                }
                struct Pricing {
                    init() {}

                    nonisolated static var dependencyRegistration: Dependency<Pricing> {
                        Dependency<Pricing>(locator: DependencyLocator.value(Region.europe), scope: DependencyScope.automatic(for: Pricing.self), eagerness: DependencyEagerness.lazy) { () in
                            Pricing()
                        }
                    }

                    nonisolated static var dependencyValue: AnyHashable {
                        AnyHashable(Region.europe)
                    }
                }

                extension Clock: RegisterableDependency, AutoregisterableDependency {
                }

                extension Pricing: RegisterableDependency, AutoregisterableDependency {
                }
                """
        )
    }

    @Test func misusesAreDiagnosed() {
        assertExpansion(
            """
            @Registerable
            struct Ambiguous {
                init(a: Int) {}
                init(b: Int) {}
            }
            @Registerable
            struct Empty {}
            """,
            expandedSource: """
                struct Ambiguous {
                    init(a: Int) {}
                    init(b: Int) {}
                }
                struct Empty {}

                extension Ambiguous: RegisterableDependency, AutoregisterableDependency {
                }

                extension Empty: RegisterableDependency, AutoregisterableDependency {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@Registerable found several initializers and cannot choose. To fix this, mark the one to use with @PreferredInitializer.",
                    line: 1, column: 1, fixIts: [FixItSpec(message: "Mark the first initializer with @PreferredInitializer")]),
                DiagnosticSpec(
                    message:
                        "@Registerable needs an initializer to register. To fix this, declare one (a memberwise initializer is not visible to macros).",
                    line: 6, column: 1),
            ]
        )
    }

    @Test func ofSeveralPreferredInitializersTheOneWithTheFewestParametersIsUsed() {
        assertExpansion(
            """
            @Registerable
            struct Mailer {
                @PreferredInitializer
                init(host: String, port: Int) {}
                @PreferredInitializer
                init(host: String) {}
                init() {}
            }
            """,
            expandedSource: """
                struct Mailer {
                    init(host: String, port: Int) {}
                    init(host: String) {}
                    init() {}

                    nonisolated static var dependencyRegistration: Dependency<Mailer> {
                        Dependency<Mailer>(locator: DependencyLocator.type(Mailer.self), scope: DependencyScope.automatic(for: Mailer.self), eagerness: DependencyEagerness.lazy) { (p0: String) in
                            Mailer(host: p0)
                        }
                    }
                }

                extension Mailer: RegisterableDependency, AutoregisterableDependency {
                }
                """
        )
    }

    @Test func onlyATieForTheFewestParametersIsDiagnosed() {
        assertExpansion(
            """
            @Registerable
            struct Mailer {
                @PreferredInitializer
                init(host: String) {}
                @PreferredInitializer
                init(port: Int) {}
                @PreferredInitializer
                init(host: String, port: Int) {}
            }
            """,
            expandedSource: """
                struct Mailer {
                    init(host: String) {}
                    init(port: Int) {}
                    init(host: String, port: Int) {}
                }

                extension Mailer: RegisterableDependency, AutoregisterableDependency {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "Several preferred initializers take the fewest parameters, so @Registerable cannot choose (an initializer generated by @InjectedParameters counts as preferred). To fix this, remove @PreferredInitializer from all but one of them.",
                    line: 5, column: 5)
            ]
        )
    }

    @Test func theInitializerGeneratedByInjectedParametersIsPreferred() {
        assertExpansion(
            """
            @Registerable(scope: .singleton)
            final class UploadService {
                @InjectedParameters(ignoring: "label")
                init(label: String, session: Session) throws {}
                init(session: Session) {}
            }
            """,
            expandedSource: """
                final class UploadService {
                    init(label: String, session: Session) throws {}

                    convenience init(label: String) throws {
                        try self.init(label: label, session: try DependencyGraph.inject(byType: Session.self))
                    }
                    init(session: Session) {}

                    nonisolated static var dependencyRegistration: Dependency<UploadService> {
                        Dependency<UploadService>(locator: DependencyLocator.type(UploadService.self), scope: DependencyScope.singleton, eagerness: DependencyEagerness.lazy) { (p0: String) in
                            try UploadService(label: p0)
                        }
                        .dependsOn(Session.self)
                    }
                }

                extension UploadService: RegisterableDependency, AutoregisterableDependency {
                }
                """
        )
    }

    @Test func aMainActorTypeIsBuiltOnTheMainActor() {
        assertExpansion(
            """
            @MainActor @Registerable
            final class ProfileViewModel {
                init(userID: Int) {}
            }
            """,
            expandedSource: """
                @MainActor
                final class ProfileViewModel {
                    init(userID: Int) {}

                    nonisolated static var dependencyRegistration: Dependency<ProfileViewModel> {
                        Dependency<ProfileViewModel>(locator: DependencyLocator.type(ProfileViewModel.self), scope: DependencyScope.automatic(for: ProfileViewModel.self), eagerness: DependencyEagerness.lazy, isolation: DependencyIsolation.mainActor) { (p0: Int) in
                            ProfileViewModel(userID: p0)
                        }
                    }
                }

                extension ProfileViewModel: RegisterableDependency, AutoregisterableDependency {
                }
                """
        )
    }

    @Test func anAsyncInitializerMakesAnAsyncFactory() {
        assertExpansion(
            """
            @Registerable(scope: .singleton)
            final class Database {
                init(url: String) async throws {}
            }
            @Registerable
            struct Warmup {
                init() async {}
            }
            """,
            expandedSource: """
                final class Database {
                    init(url: String) async throws {}

                    nonisolated static var dependencyRegistration: Dependency<Database> {
                        Dependency<Database>(locator: DependencyLocator.type(Database.self), scope: DependencyScope.singleton, eagerness: DependencyEagerness.lazy) { (p0: String) async throws -> Database in
                            try await Database(url: p0)
                        }
                    }
                }
                struct Warmup {
                    init() async {}

                    nonisolated static var dependencyRegistration: Dependency<Warmup> {
                        Dependency<Warmup>(locator: DependencyLocator.type(Warmup.self), scope: DependencyScope.automatic(for: Warmup.self), eagerness: DependencyEagerness.lazy) { () async -> Warmup in
                            await Warmup()
                        }
                    }
                }

                extension Database: RegisterableDependency, AutoregisterableDependency {
                }

                extension Warmup: RegisterableDependency, AutoregisterableDependency {
                }
                """
        )
    }

    @Test func registrationsGroupsTheListedTypes() {
        assertExpansion(
            """
            let group = #registrations(Repository.self, Clock.self)
            let wrong = #registrations(Repository)
            """,
            expandedSource: """
                let group = DependencyGroup {
                    Repository.dependencyRegistration
                    Clock.dependencyRegistration
                }
                let wrong = DependencyGroup {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "#registrations takes types, written as 'Service.self'. To fix this, pass each @Registerable type followed by '.self'.",
                    line: 2, column: 28)
            ]
        )
    }
}
