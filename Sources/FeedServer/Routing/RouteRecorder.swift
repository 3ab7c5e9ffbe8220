import Hummingbird

/// The router as the route files see it: registers each route on the Hummingbird router and
/// records it in the ``RouteTable`` (for 405 and `Allow`).
struct RouteRecorder: RouterMethods {
    typealias Context = ServerContext

    /// Where the routes go.
    let router: Router<ServerContext>
    /// Where they are recorded.
    let table: RouteTable

    @discardableResult
    func on<Responder: HTTPResponder>(_ path: RouterPath, method: HTTPRequest.Method, responder: Responder) -> Self
    where Responder.Context == Context {
        table.add(path, method)
        router.on(path, method: method, responder: responder)
        return self
    }

    @discardableResult
    func add(middleware: any MiddlewareProtocol<Request, Response, Context>) -> Self {
        router.add(middleware: middleware)
        return self
    }
}
