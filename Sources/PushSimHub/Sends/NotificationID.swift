import PushSimKernel

/// A notification id in the form the live hub hands out in a send's `Location`:
/// `NH-<yyyyMMddHHmmssfff>-<32 hex digits>-<2 digits>`, the UTC time the send was accepted to the
/// millisecond, then 32 lower-case hex digits (a GUID without dashes), then two digits
/// (NH-JS-REC: `NH-20230803155355238-23cfaa9cd29144c8a8e05c08336d5153-07` in 2023,
/// `NH-20221214202418733-10e10df3cf8145ce838ec74b5610a9f6-06` in 2022). What the last two digits
/// mean is not published; the recordings show 06 and 07, and PushSim draws them from 00 to 15.
/// The .NET SDK's 2018 recordings show an older form (`<32 hex>-<yyyyMMddHHmmss>-<8 digits>-<2
/// digits>`), and a scheduled send's id in another one again; no newer recording of a scheduled
/// send is public, so PushSim gives scheduled sends the same form as the others.
///
/// The time is the world's virtual time on its calendar anchor; the hex digits and the last two
/// come from the hub's own `hub/notification-ids` stream, so ids are the same in every run with
/// the same seed and drawing them moves no other random number.
enum NotificationID {
    /// The id of a send accepted at `t`.
    static func make(at t: VirtualTime, anchor: CalendarAnchor, random: inout SeededRandom) -> String {
        let milliseconds = anchor.unixMilliseconds(t)
        let seconds = milliseconds >= 0 ? milliseconds / 1_000 : (milliseconds - 999) / 1_000
        let c = CalendarAnchor.civil(unixSeconds: seconds)
        let stamp = pad(c.year, 4) + pad(c.month, 2) + pad(c.day, 2) + pad(c.hour, 2) + pad(c.minute, 2) + pad(c.second, 2)
            + pad(milliseconds - seconds * 1_000, 3)
        let guid = random.hex(bytes: 16)
        return "NH-" + stamp + "-" + guid + "-" + pad(Int64(random.int(below: 16)), 2)
    }
}
