import Swinject

func makeSwinjectContainer() -> Container {
    let container = Container()
    container.register(SingletonService.self) { _ in SingletonService() }.inObjectScope(.container)
    container.register(NamedSingleton.self, name: "named-singleton") { _ in NamedSingleton() }.inObjectScope(.container)
    container.register(TransientService.self) { _ in TransientService() }.inObjectScope(.transient)
    container.register(ParameterizedService.self) { (_, value: Int) in ParameterizedService(value: value) }
        .inObjectScope(.transient)
    container.register(LeafB.self) { _ in LeafB() }.inObjectScope(.transient)
    container.register(NodeA.self) { resolver in NodeA(b: resolver.resolve(LeafB.self)!) }.inObjectScope(.transient)
    container.register(LeafC.self) { _ in LeafC() }.inObjectScope(.transient)
    container.register(GraphRoot.self) { resolver in
        GraphRoot(a: resolver.resolve(NodeA.self)!, c: resolver.resolve(LeafC.self)!)
    }.inObjectScope(.transient)
    return container
}

func makeWideSwinjectContainer() -> Container {
    let container = Container()
    for name in wideNames {
        container.register(WideService.self, name: name) { _ in WideService() }.inObjectScope(.container)
    }
    return container
}
