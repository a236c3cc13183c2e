import Testing
@testable import PushSimServices
import PushSimNetwork
import PushSimKernel

/// The body must parse into the v1 `SendMessageRequest` (``FCMMessageSchema``): unknown or
/// misspelt field names are 400 `INVALID_ARGUMENT` "Invalid JSON payload received. Unknown name …",
/// values of the wrong JSON type are "Invalid value at …"; both the proto and the JSON spelling of
/// a field are accepted, and free-form objects are not looked into.
@Suite("FCM HTTP v1 send: the message schema (Citations §2.1–§2.3)")
struct FCMSchemaTests {
    /// Expects Google's answer to a body that does not parse: 400 INVALID_ARGUMENT, the lines as
    /// the message, one BadRequest violation per line, no FcmError detail.
    private func expectUnparsable(_ r: HTTPResponse, _ violations: [(field: String?, description: String)],
                                  sourceLocation: SourceLocation = #_sourceLocation) {
        let e = GoogleError(r)
        #expect(r.status == 400, sourceLocation: sourceLocation)
        #expect(e.code == 400 && e.status == "INVALID_ARGUMENT", sourceLocation: sourceLocation)
        #expect(e.message == violations.map(\.description).joined(separator: "\n"), sourceLocation: sourceLocation)
        #expect(e.fcmErrorCode == nil, sourceLocation: sourceLocation)
        #expect(e.details?.count == 1, sourceLocation: sourceLocation)
        let list = e.details?.first?["fieldViolations"]?.arrayValue ?? []
        #expect(list.map { $0["field"]?.stringValue } == violations.map(\.field), sourceLocation: sourceLocation)
        #expect(list.map { $0["description"]?.stringValue } == violations.map(\.description), sourceLocation: sourceLocation)
    }

    @Test func unknownAndroidFieldIsInvalidJSONPayload() {
        let bench = FCMBench()
        let r = bench.send(bench.message(["android": ["time_to_live": "60s"], "data": ["a": "b"]]))
        let line = #"Invalid JSON payload received. Unknown name "time_to_live" at 'message.android': Cannot find field."#
        expectUnparsable(r, [("message.android", line)])
        bench.world.run()
        #expect(bench.phone.pushes.isEmpty)
        #expect(bench.world.events("fcm.rejected").first?[.error] == "INVALID_ARGUMENT")
    }

    @Test func misspeltFieldsEverywhereAreAllListed() {
        let bench = FCMBench()
        let body = #"{"message":{"token":"\#(bench.token)","tokens":["x"],"notification":{"title":"t","clickAction":"OPEN"},"#
            + #""android":{"notification":{"body_lock_key":"k"}},"apns":{"fcmOptions":{"imageUrl":"u"}}},"to":"x"}"#
        let r = bench.send(raw: body)
        expectUnparsable(r, [
            ("message", #"Invalid JSON payload received. Unknown name "tokens" at 'message': Cannot find field."#),
            ("message.notification", #"Invalid JSON payload received. Unknown name "clickAction" at 'message.notification': Cannot find field."#),
            ("message.android.notification", #"Invalid JSON payload received. Unknown name "body_lock_key" at 'message.android.notification': Cannot find field."#),
            ("message.apns.fcm_options", #"Invalid JSON payload received. Unknown name "imageUrl" at 'message.apns.fcm_options': Cannot find field."#),
            (nil, #"Invalid JSON payload received. Unknown name "to": Cannot find field."#),
        ])
    }

    @Test func legacyTopLevelBodyIsRefusedFieldByField() {
        let bench = FCMBench()
        let r = bench.send(raw: #"{"to":"\#(bench.token)","time_to_live":60,"priority":"high","data":{"a":"b"}}"#)
        expectUnparsable(r, ["to", "time_to_live", "priority", "data"].map {
            (nil, #"Invalid JSON payload received. Unknown name "\#($0)": Cannot find field."#)
        })
    }

    @Test func listForAnObjectIsNotRepeating() {
        let bench = FCMBench()
        expectUnparsable(bench.send(bench.message(["notification": [["title": "t"]]])),
                         [("message", #"Invalid JSON payload received. Unknown name "notification" at 'message': Proto field is not repeating, cannot start list."#)])
    }

    /// Every field of the v1 reference, each in its proto (snake_case) spelling and again in its
    /// JSON (lowerCamelCase) one; `apns.payload`, `webpush.notification` and the maps hold anything.
    @Test(arguments: [false, true])
    func everyDocumentedFieldIsAcceptedInEitherSpelling(camel: Bool) {
        let bench = FCMBench()
        func n(_ proto: String) -> String { camel ? FCMMessageSchema.jsonName(proto) : proto }
        let androidNotification = """
            {"title":"t","body":"b","icon":"i","color":"#112233","sound":"default","tag":"room",\
            "\(n("click_action"))":"OPEN","\(n("body_loc_key"))":"k","\(n("body_loc_args"))":["a","b"],"\(n("title_loc_key"))":"k",\
            "\(n("title_loc_args"))":["a"],"\(n("channel_id"))":"chat","ticker":"x","sticky":true,\
            "\(n("event_time"))":"2024-01-01T00:00:00Z","\(n("local_only"))":false,"\(n("notification_priority"))":"PRIORITY_HIGH",\
            "\(n("default_sound"))":true,"\(n("default_vibrate_timings"))":false,"\(n("default_light_settings"))":false,\
            "\(n("vibrate_timings"))":["0.5s","1s"],"visibility":"PUBLIC","\(n("notification_count"))":3,\
            "\(n("light_settings"))":{"color":{"red":0.5,"green":1,"blue":0,"alpha":1},"\(n("light_on_duration"))":"1s","\(n("light_off_duration"))":"0.5s"},\
            "image":"https://example.com/i.png","\(n("bypass_proxy_notification"))":false,"proxy":"DENY"}
            """
        let message = """
            {"token":"\(bench.token)","name":"ignored","data":{"k":"v"},\
            "notification":{"title":"Hi","body":"there","image":"https://example.com/i.png"},\
            "android":{"\(n("collapse_key"))":"score","priority":"high","ttl":"3600s","\(n("restricted_package_name"))":"\(FCMBench.package)",\
            "data":{"k":"v"},"notification":\(androidNotification),"\(n("fcm_options"))":{"\(n("analytics_label"))":"l"},\
            "\(n("direct_boot_ok"))":true,"\(n("bandwidth_constrained_ok"))":false,"\(n("restricted_satellite_ok"))":false},\
            "webpush":{"headers":{"Urgency":"high","TTL":"60"},"data":{"any key":"v"},\
            "notification":{"title":"t","actions":[{"action":"a"}],"requireInteraction":true},\
            "\(n("fcm_options"))":{"link":"https://example.com","\(n("analytics_label"))":"l"}},\
            "apns":{"headers":{"apns-priority":"10","apns-whatever":"x"},\
            "payload":{"aps":{"alert":{"title":"t"},"badge":1},"custom":{"deep":[1,2,null]}},\
            "\(n("fcm_options"))":{"\(n("analytics_label"))":"l","image":"u"},"\(n("live_activity_token"))":"abc"},\
            "\(n("fcm_options"))":{"\(n("analytics_label"))":"l"}}
            """
        let r = bench.send(raw: #"{"\#(n("validate_only"))":false,"message":"# + message + "}")
        #expect(r.status == 200, "\(r.bodyText)")
        #expect(bench.phone.pushes.count == 1)
    }

    @Test func camelCaseCollapseKeyAndValidateOnlyAreHonoured() throws {
        let both = [#"{"validateOnly":true,"message":{"token":"t","android":{"collapseKey":"score","ttl":"60s"}}}"#,
                    #"{"validate_only":true,"message":{"token":"t","android":{"collapse_key":"score","ttl":"60s"}}}"#]
        for body in both {
            let m = try FCMMessage.parse(body: Array(body.utf8)).get()
            #expect(m.collapseKey == "score")
            #expect(m.validateOnly)
            #expect(m.ttlSeconds == 60)
        }
    }

    @Test func nullMeansNotSet() {
        let bench = FCMBench()
        #expect(bench.send(bench.message(["data": .null, "android": ["notification": .null, "ttl": .null], "topic": .null])).status == 200)
    }

    @Test func booleansAndNumbersMayComeQuoted() throws {
        let bench = FCMBench()
        for flag: JSONValue in [true, "true", "YES", "0", "f"] {
            #expect(bench.send(bench.message(["android": .object([("direct_boot_ok", flag)]),
                                              "notification": ["title": "t"]])).status == 200)
        }
        #expect(bench.send(bench.message(["android": ["notification": ["notification_count": "7"]]])).status == 200)
        let quoted = #"{"validate_only":"yes","message":{"token":"t"}}"#
        #expect(try FCMMessage.parse(body: Array(quoted.utf8)).get().validateOnly)
    }

    @Test func enumsTakeAnyCaseOrANumber() {
        let bench = FCMBench()
        for priority: JSONValue in ["high", "NORMAL", "High", 1] {
            #expect(bench.send(bench.message(["android": .object([("priority", priority)])])).status == 200)
        }
        #expect(bench.send(bench.message(["android": ["notification": ["visibility": "secret", "notification_priority": 2]]])).status == 200)
    }

    @Test func wrongTypesAreInvalidValues() {
        let bench = FCMBench()
        let cases: [(JSONValue, String)] = [
            (["data": ["a": 1]], "Invalid value at 'message.data[0].value' (TYPE_STRING), 1"),
            (["android": ["direct_boot_ok": "sure"]], #"Invalid value at 'message.android.direct_boot_ok' (TYPE_BOOL), "sure""#),
            (["android": ["priority": "urgent"]],
             #"Invalid value at 'message.android.priority' (type.googleapis.com/google.firebase.fcm.v1.AndroidMessagePriority), "urgent""#),
            (["android": ["notification": ["notification_count": "many"]]],
             #"Invalid value at 'message.android.notification.notification_count' (TYPE_INT32), "many""#),
            (["android": ["notification": ["body_loc_args": ["a", 2]]]],
             "Invalid value at 'message.android.notification.body_loc_args[1]' (TYPE_STRING), 2"),
            (["notification": "Hello"], #"Invalid value at 'message.notification' (type.googleapis.com/google.firebase.fcm.v1.Notification), "Hello""#),
            (["webpush": ["data": ["a": "ok", "b": false]]], "Invalid value at 'message.webpush.data[1].value' (TYPE_STRING), false"),
            (["apns": ["headers": ["apns-priority": 10]]], "Invalid value at 'message.apns.headers[0].value' (TYPE_STRING), 10"),
            (["apns": ["payload": "aps"]], #"Invalid value at 'message.apns.payload' (type.googleapis.com/google.protobuf.Struct), "aps""#),
            (["android": ["notification": ["vibrate_timings": ["1 second"]]]], "Invalid value at 'message.android.notification.vibrate_timings[0]'."),
        ]
        for (fields, message) in cases {
            let r = bench.send(.object([("token", .string(bench.token))] + (fields.objectMembers ?? [])))
            expectFCMError(r, 400, "INVALID_ARGUMENT", "INVALID_ARGUMENT", message: message)
            #expect(GoogleError(r).violatedFields.count == 1)
        }
        #expect(bench.phone.pushes.isEmpty)
    }

    /// Bugs: any string passed as a Timestamp, and `"inf"` or `"1e999"` as a float. Google's
    /// converter reads a Timestamp with protobuf's `ParseTime` and refuses a float that comes out
    /// infinite.
    @Test func timestampsAndFloatsAreReadAsGoogleReadsThem() {
        for good in ["2024-01-01T00:00:00Z", "2024-02-29T23:59:59.123456789Z", "2015-05-20T13:29:35.120-08:00", "2024-1-2T3:4:5+01:30",
                     "0001-01-01T00:00:00Z", "2024-01-01T00:00:00.1234567891Z"] {
            #expect(FCMMessageSchema.isTimestamp(good), "\(good)")
        }
        for bad in ["", "tomorrow", "2024-01-01", "2024-01-01 00:00:00Z", "2024-01-01T00:00:00", "2023-02-29T00:00:00Z",
                    "2024-13-01T00:00:00Z", "2024-01-01T24:00:00Z", "2024-01-01T00:00:60Z", "2024-01-01T00:00:00.Z",
                    "2024-01-01T00:00:00Zjunk", "2024-01-01T00:00:00+0100", "0000-01-01T00:00:00Z", "2024-01-01t00:00:00z"] {
            #expect(!FCMMessageSchema.isTimestamp(bad), "\(bad)")
        }
        for good: JSONValue in [.number(JSONNumber(text: "0.5")), 1, "0.25", "Infinity", "-Infinity", "NaN", "1e3", "0x1p3"] {
            #expect(FCMMessageSchema.isFloat(good), "\(good)")
        }
        for bad: JSONValue in ["inf", "nan", "1e999", .number(JSONNumber(text: "1e300")), "half", " 1", true] {
            #expect(!FCMMessageSchema.isFloat(bad), "\(bad)")
        }
        let bench = FCMBench()
        let r = bench.send(bench.message(["android": ["notification": ["event_time": "tomorrow"]]]))
        expectFCMError(r, 400, "INVALID_ARGUMENT", "INVALID_ARGUMENT",
                       message: #"Invalid value at 'message.android.notification.event_time' (type.googleapis.com/google.protobuf.Timestamp), "tomorrow""#)
        let color = bench.send(bench.message(["android": ["notification": ["color": "#112233", "light_settings": [
            "color": ["red": "inf", "green": 1, "blue": 0, "alpha": 1], "light_on_duration": "1s", "light_off_duration": "1s"]]]]))
        expectFCMError(color, 400, "INVALID_ARGUMENT", "INVALID_ARGUMENT",
                       message: #"Invalid value at 'message.android.notification.light_settings.color.red' (TYPE_FLOAT), "inf""#)
        #expect(bench.phone.pushes.isEmpty)
    }

    @Test func unknownNamesWinOverWrongTypes() {
        let bench = FCMBench()
        let r = bench.send(bench.message(["data": ["a": 1], "android": ["ttl_seconds": 60]]))
        expectUnparsable(r, [("message.android", #"Invalid JSON payload received. Unknown name "ttl_seconds" at 'message.android': Cannot find field."#)])
    }

    @Test func aBroadcastBodyWithAnUnknownFieldIsRefusedForEveryCopy() {
        let bench = FCMBench()
        let tail = #"","android":{"colapse_key":"x"}}}"#
        for _ in 0..<3 {
            #expect(bench.send(raw: #"{"message":{"token":""# + bench.token + tail).status == 400)
        }
        let good = #"","android":{"collapseKey":"x"}}}"#
        for _ in 0..<3 {
            #expect(bench.send(raw: #"{"message":{"token":""# + bench.token + good).status == 200)
        }
        #expect(bench.phone.pushes.count == 3)
    }
}
