extension DependencyContainer {
    /// Creates a container holding the registrations of every container in `containers`.
    ///
    /// Where two containers register the same dependency, the later one wins. The merged
    /// containers are retained, and invalidating one of them invalidates the merged container.
    ///
    /// ```swift
    /// let containers: [DependencyContainer] = composeFeatureContainers()
    /// let container = DependencyContainer(merging: containers)
    /// ```
    public convenience init<S: Sequence>(merging containers: S) where S.Element == DependencyContainer {
        self.init(merging: Array(containers))
    }

    /// Creates a container holding the registrations of two or more containers.
    ///
    /// ```swift
    /// let container = DependencyContainer(merging: networking, storage, analytics)
    /// ```
    public convenience init(
        merging first: DependencyContainer,
        _ second: DependencyContainer,
        _ others: DependencyContainer...
    ) {
        self.init(merging: [first, second] + others)
    }
}
