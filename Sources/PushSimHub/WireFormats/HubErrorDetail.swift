import PushSimKernel

/// The text of an error answer's `<Detail>`, as the live hub writes every one: the message, then
/// `.TrackingId:<id>_G<gateway>,TimeStamp:<UTC time>`, the time written as .NET's invariant
/// culture writes a date (`M/d/yyyy h:mm:ss AM`). Seen in the .NET SDK's recording of a read of a
/// deleted registration (`.TrackingId:33e8ef5f-…_G8,TimeStamp:8/14/2019 4:58:19 AM`, an empty
/// message), and in answers quoted in NH-DOTNET-12 (`ExpiredToken: .TrackingId:…`), NH-JAVA-108
/// (`InvalidSignature: The token has an invalid signature..TrackingId:…_G2,TimeStamp:10/26/2021
/// 3:38:01 AM`) and SBEXPLORER-128 (`Manage claim is required for this operation..TrackingId:…`).
///
/// PushSim's tracking ids are its own, drawn from the hub's `hub/tracking` stream, with gateway 1;
/// whether the live hub reuses the `TrackingId` header a client sends is not documented.
package enum HubErrorDetail {
    /// Marks where the message ends and the tracking part begins.
    static let trackingMarker = ".TrackingId:"

    /// `message` followed by the tracking part for `trackingID` at `unixSeconds`.
    static func text(_ message: String, trackingID: String, unixSeconds: Int64) -> String {
        message + trackingMarker + trackingID + ",TimeStamp:" + timestamp(unixSeconds: unixSeconds)
    }

    /// A tracking id as the live hub writes one: a lower-case UUID and the gateway that answered.
    static func trackingID(_ random: inout SeededRandom) -> String { random.uuidString() + "_G1" }

    /// A `<Detail>` text split into its message and tracking id (nil when it has no tracking part,
    /// as a detail written by something other than the hub).
    package static func split(_ detail: String) -> (message: String, trackingID: String?) {
        let bytes = Array(detail.utf8), marker = Array(trackingMarker.utf8)
        guard bytes.count >= marker.count,
              let start = (0...(bytes.count - marker.count)).reversed().first(where: { bytes[$0..<($0 + marker.count)].elementsEqual(marker) })
        else { return (detail, nil) }
        let id = bytes[(start + marker.count)...].prefix { $0 != UInt8(ascii: ",") }
        return (String(decoding: bytes[..<start], as: UTF8.self), String(decoding: id, as: UTF8.self))
    }

    /// `M/d/yyyy h:mm:ss AM` (UTC, 12-hour clock, no leading zeros on month, day and hour): how
    /// .NET's invariant culture writes a `DateTime` in general format.
    static func timestamp(unixSeconds: Int64) -> String {
        let c = CalendarAnchor.civil(unixSeconds: unixSeconds)
        let hour12 = c.hour % 12 == 0 ? 12 : c.hour % 12
        return "\(c.month)/\(c.day)/\(c.year) \(hour12):\(pad(c.minute, 2)):\(pad(c.second, 2)) \(c.hour < 12 ? "AM" : "PM")"
    }
}
