import PushSimKernel
import PushSimNetwork

extension Browser {
    /// Takes a push from its push service (`POST /push` over `WebPushChannel`): 410 when the
    /// browser holds no subscription with the pushed endpoint (unsubscribed, profile cleared), so
    /// the service learns it is gone; else 200, and the service worker's `push` event runs
    /// (`receive(_:message:subscription:)`). Any other path is 404.
    public func handle(_ request: HTTPRequest, exchange: Exchange, world: World) {
        guard request.path == DeviceChannel.pushPath else { return world.respond(to: exchange, with: HTTPResponse(status: 404)) }
        let message = request.headers[DeviceChannel.messageHeader] ?? ""
        guard let subscription, request.headers[DeviceChannel.handleHeader] == subscription.endpoint else {
            record(.devicePushRefused, [.message: .string(message), .why: "the browser holds no such subscription"])
            return world.respond(to: exchange, with: HTTPResponse(status: 410))
        }
        world.respond(to: exchange, with: HTTPResponse(status: 200))
        receive(request, message: message, subscription: subscription)
    }

    /// Decrypts the pushed body and lets the service worker show it: `aes128gcm` (RFC 8291) with
    /// its keys in the body, or the older `aesgcm` draft with its salt and record size in
    /// `Encryption` and the sender's key in `Crypto-Key: dh=` (``DraftWebPushEncryption``), which
    /// Chrome and Firefox still take. A body in another coding, or that does not decrypt
    /// (a wrong key, a tampered record, bad padding), is dropped with `browser.push-dropped`: the
    /// push event never fires, as Chrome does (it records the `GCMDecryptionResult` and delivers
    /// nothing: WP-CHROMIUM-DECRYPT, Citations §9.9). A push with no body fires the event with
    /// no data, which shows nothing.
    func receive(_ request: HTTPRequest, message: String, subscription: BrowserPushSubscription) {
        guard !request.body.isEmpty else {
            return record(.browserPushEvent, [.message: .string(message), .why: "no data: the service worker has nothing to show"])
        }
        let coding = request.headers["content-encoding"]?.lowercased() ?? ""
        guard coding == "aes128gcm" || coding == "aesgcm" else {
            return record(.browserPushDropped, [.message: .string(message),
                                                .why: .string("content coding \"\(coding)\": a browser decrypts aes128gcm and aesgcm")])
        }
        let plaintext: [UInt8]
        do {
            plaintext = coding == "aes128gcm" ? try subscription.decrypt(request.body)
                : try subscription.decryptDraft(request.body, encryption: request.headers["encryption"], cryptoKey: request.headers["crypto-key"])
        } catch {
            return record(.browserPushDropped, [.message: .string(message), .why: .string("decryption failed: \(error)")])
        }
        record(.browserPushEvent, [.message: .string(message), .bytes: .int(plaintext.count)])
        guard let text = WebPushShownText.text(of: plaintext) else { return }
        inbox.append(ShownNotification(time: world.now, text: text, service: "webpush", correlation: world.correlation))
        world.record(layer: "browser", host: name, kind: .notificationShown, [.service: "webpush", .text: .string(text)])
    }
}
