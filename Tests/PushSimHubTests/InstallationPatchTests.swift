import PushSimKernel
import PushSimNetwork
@testable import PushSimHub
import Testing

/// Installation PATCH (Citations §4.3; NH-REST, NH-REG): each operation and path, the
/// 400s, 404 and 415, and all-or-nothing application.
@Suite("Hub installation patches")
struct InstallationPatchTests {
    private func world() -> HubWorld {
        let w = HubWorld(services: false)
        let i = Installation(installationID: "inst", platform: .fcmV1, pushChannel: "token-1", tags: ["a", "b"],
                             templates: ["alert": InstallationTemplate(body: Payload.fcmTemplate, tags: ["t"])], userID: "alice")
        w.install(i)
        return w
    }

    private func read(_ w: HubWorld) -> Installation? { try? w.installation("inst")?.get() }

    private func ok(_ w: HubWorld, _ json: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let r = w.rawPatch("inst", json: json)
        #expect(r?.status == 200, "\(w.detail(r) ?? "")", sourceLocation: sourceLocation)
    }

    @Test func pushChannelAddAndReplace() {
        let w = world()
        ok(w, #"[{"op":"replace","path":"/pushChannel","value":"token-2"}]"#)
        #expect(read(w)?.pushChannel == "token-2")
        ok(w, #"[{"op":"add","path":"/pushChannel","value":"token-3"}]"#)
        #expect(read(w)?.pushChannel == "token-3")
        let remove = w.rawPatch("inst", json: #"[{"op":"remove","path":"/pushChannel"}]"#)
        #expect(remove?.status == 400)
        #expect(w.detail(remove) == "The pushChannel of an installation cannot be removed.")
    }

    @Test func tagOperations() {
        let w = world()
        ok(w, #"[{"op":"add","path":"/tags","value":"c"}]"#)
        #expect(read(w)?.tags == ["a", "b", "c"])
        ok(w, #"[{"op":"add","path":"/tags","value":["d","a"]}]"#)
        #expect(read(w)?.tags == ["a", "b", "c", "d"])
        ok(w, #"[{"op":"remove","path":"/tags/b"}]"#)
        #expect(read(w)?.tags == ["a", "c", "d"])
        ok(w, #"[{"op":"remove","path":"/tags/not-there"}]"#)
        ok(w, #"[{"op":"replace","path":"/tags","value":["x:1","y"]}]"#)
        #expect(read(w)?.tags == ["x:1", "y"])
        ok(w, #"[{"op":"remove","path":"/tags"}]"#)
        #expect(read(w)?.tags == [])
    }

    @Test func pathSegmentsUseJSONPointerEscapes() {
        let w = HubWorld(services: false)
        w.install(Installation(installationID: "inst", platform: .fcmV1, pushChannel: "t",
                               templates: ["a/b~c": InstallationTemplate(body: Payload.fcmTemplate), "d": InstallationTemplate(body: Payload.fcmTemplate)]))
        ok(w, #"[{"op":"remove","path":"/templates/a~1b~0c"}]"#)
        #expect(read(w)?.templates.keys.sorted() == ["d"])
    }

    @Test func userIdAndExpirationTime() {
        let w = world()
        ok(w, #"[{"op":"replace","path":"/userId","value":"bob"}]"#)
        #expect(read(w)?.userID == "bob")
        ok(w, #"[{"op":"remove","path":"/userId"}]"#)
        #expect(read(w)?.userID == nil)
        ok(w, #"[{"op":"add","path":"/expirationTime","value":"2026-01-03T00:00:00Z"}]"#)
        #expect(read(w)?.expirationTime == "2026-01-03T00:00:00Z")
        ok(w, #"[{"op":"add","path":"/tags","value":"keeps-expiry"}]"#)
        #expect(read(w)?.expirationTime == "2026-01-03T00:00:00Z")
        ok(w, #"[{"op":"remove","path":"/expirationTime"}]"#)
        #expect(read(w)?.expirationTime == Installation.neverExpires)
    }

    @Test func templateOperations() {
        let w = world()
        ok(w, #"[{"op":"add","path":"/templates/second","value":{"body":"{\"message\":{\"data\":{\"m\":\"$(m)\"}}}","tags":["s"]}}]"#)
        #expect(read(w)?.templates.keys.sorted() == ["alert", "second"])
        #expect(read(w)?.templates["second"]?.tags == ["s"])
        ok(w, #"[{"op":"add","path":"/templates/alert/tags","value":"u"}]"#)
        #expect(read(w)?.templates["alert"]?.tags == ["t", "u"])
        ok(w, #"[{"op":"replace","path":"/templates/alert/tags","value":["z"]}]"#)
        #expect(read(w)?.templates["alert"]?.tags == ["z"])
        ok(w, #"[{"op":"remove","path":"/templates/alert/tags"}]"#)
        #expect(read(w)?.templates["alert"]?.tags == ["alert"])   // a template without tags reads back with its name
        ok(w, #"[{"op":"remove","path":"/templates/alert"}]"#)
        #expect(read(w)?.templates.keys.sorted() == ["second"])
    }

    @Test(arguments: [
        (#"[{"op":"move","path":"/tags","from":"/x"}]"#, "The patch operation 'move' is not supported: use add, remove or replace."),
        (#"[{"op":"test","path":"/tags","value":[]}]"#, "The patch operation 'test' is not supported: use add, remove or replace."),
        (#"[{"op":"add","path":"/platform","value":"wns"}]"#, "The patch operation 'add' on '/platform' is not supported."),
        (#"[{"op":"add","path":"/tags/x/y"}]"#, "The patch operation 'add' on '/tags/x/y' is not supported."),
        (#"[{"op":"add","path":"/tags/x"}]"#, "The patch operation 'add' on '/tags/x' is not supported."),
        (#"[{"op":"add","path":"tags","value":"x"}]"#, "The path 'tags' is not a JSON Pointer."),
        (#"[{"op":"add","path":"/tags","value":3}]"#, "The value for '/tags' must be a string or an array of strings."),
        (#"[{"op":"add","path":"/tags","value":"bad tag"}]"#, "The tag 'bad tag' is invalid: tags are 1 to 120 characters from letters, digits and _ @ # . : -"),
        (#"[{"op":"add","path":"/templates/none/tags","value":"x"}]"#, "The installation has no template 'none'."),
        (#"[{"op":"add","path":"/templates/bad","value":{"body":"{\"data\":1}"}}]"#,
         "The template 'bad' is invalid: an FCM v1 template must be a JSON object with a \"message\" object"),
        (#"[{"path":"/tags"}]"#, "Each patch operation needs a string op and path."),
        (#"{"op":"add"}"#, "The patch must be a JSON array of operations."),
    ])
    func badPatchesAre400AndChangeNothing(body: String, detail: String) {
        let w = world()
        let before = read(w)
        // The good first operation is not applied either: all or nothing.
        let all = "[{\"op\":\"add\",\"path\":\"/tags\",\"value\":\"first\"}," + (body.hasPrefix("[") ? String(body.dropFirst()) : body + "]")
        let r = w.rawPatch("inst", json: body.hasPrefix("[") ? all : body)
        #expect(r?.status == 400)
        #expect(w.detail(r) == detail)
        #expect(read(w) == before)
    }

    @Test func unknownInstallationIs404AndOtherContentTypesAre415() {
        let w = world()
        let missing = w.raw("PATCH", w.path("installations/nobody"), headers: [("Content-Type", "application/json-patch+json")],
                            body: Array(#"[{"op":"remove","path":"/tags"}]"#.utf8))
        #expect(missing?.status == 404)
        #expect(w.detail(missing) == "Installation not found.")   // as the live hub words it
        let text = w.rawPatch("inst", json: #"[{"op":"remove","path":"/tags"}]"#, contentType: "text/plain")
        #expect(text?.status == 415)
        #expect(read(w)?.tags == ["a", "b"])
        guard case .failure(let e)? = w.patch("nobody", [InstallationPatchOperation(.remove, "/tags")]) else { Issue.record("expected 404"); return }
        #expect(e.kind == .entityNotFound)
    }

    /// Both SDKs type a patch's value as a string, so a template travels as a string holding its
    /// JSON; the Java SDK's end-to-end test replaces a live hub's template so. PushSim answered
    /// 400 "must be an object" (found by running that SDK against `pushsim serve`).
    @Test func aTemplateGivenAsAStringOfJSONIsApplied() {
        let w = world()
        let template = #"{\"body\":\"{\\\"message\\\":{\\\"data\\\":{\\\"m\\\":\\\"$(m)\\\"}}}\"}"#
        let r = w.rawPatch("inst", json: #"[{"op":"replace","path":"/templates/alert","value":""# + template + #""}]"#)
        #expect(r?.status == 200, "\(w.detail(r) ?? "")")
        #expect(read(w)?.templates["alert"]?.body == #"{"message":{"data":{"m":"$(m)"}}}"#)
        // A string that is not a template is still refused.
        #expect(w.rawPatch("inst", json: #"[{"op":"add","path":"/templates/x","value":"not json"}]"#)?.status == 400)
    }

    /// Microsoft's Java SDK sends its patch as `application/json; charset=UTF-8`, and patches a live
    /// hub so in its end-to-end test; PushSim answered 415 (found by running that SDK against
    /// `pushsim serve`).
    @Test func aPatchSentAsPlainJSONIsApplied() {
        let w = world()
        let r = w.rawPatch("inst", json: #"[{"op":"add","path":"/tags","value":"c"}]"#, contentType: "application/json; charset=UTF-8")
        #expect(r?.status == 200)
        #expect(read(w)?.tags == ["a", "b", "c"])
    }

    @Test func clientSendsJSONPatchAndTracesTheOperations() {
        let w = world()
        let ops = [InstallationPatchOperation(.add, "/tags", "c"), InstallationPatchOperation(.remove, "/tags/a"),
                   InstallationPatchOperation(.replace, "/userId", "carol")]
        guard case .success? = w.patch("inst", ops) else { Issue.record("patch failed"); return }
        #expect(read(w)?.tags == ["b", "c"])
        #expect(read(w)?.userID == "carol")
        let sent = w.world.journal.entries.last { $0.request.method == "PATCH" }?.request
        #expect(sent?.headers["Content-Type"] == "application/json-patch+json")
        #expect(sent?.bodyText == #"[{"op":"add","path":"/tags","value":"c"},{"op":"remove","path":"/tags/a"},{"op":"replace","path":"/userId","value":"carol"}]"#)
        #expect(w.events("hub.installation-patched").last?[.operations] == "add /tags, remove /tags/a, replace /userId")
        // The client refuses an empty list before sending anything, as the SDK does.
        guard case .failure(let e)? = w.patch("inst", []) else { Issue.record("expected a refusal"); return }
        #expect(e.kind == .argument)
    }
}
