/// What makes an action ask for text: the send button's title and the text field's placeholder (the
/// two properties Apple's `UNTextInputNotificationAction` adds to `UNNotificationAction`).
///
/// ```swift
/// let reason = try NotificationAction.textInput(
///     identifier: "meeting.reasonForDeclineInputAction", title: "거절 사유", options: [.destructive, .foreground],
///     buttonTitle: "보내기", placeholder: "거절 사유를 입력하세요")
/// reason.textInput?.buttonTitle  // "보내기"
/// ```
///
/// Both may be empty, as with Apple's `UNTextInputNotificationAction(identifier:title:options:)`: an
/// empty button title means the presenter's own ("Send"), an empty placeholder shows none. Localized
/// texts are resolved when the notification is presented.
public struct TextInputConfiguration: Sendable, Hashable {
    /// The title of the button that sends the text (`textInputButtonTitle`).
    public let buttonTitle: LocalizableText
    /// The hint shown in the empty text field (`textInputPlaceholder`).
    public let placeholder: LocalizableText

    /// - Throws: `ChimeError.invalidIdentifier` when a localized text has an empty key.
    public init(buttonTitle: LocalizableText = .empty, placeholder: LocalizableText = .empty) throws(ChimeError) {
        if buttonTitle.key?.isEmpty == true {
            throw ChimeError(.invalidIdentifier, field: "textInput.buttonTitle", "a localization key must not be empty")
        }
        if placeholder.key?.isEmpty == true {
            throw ChimeError(.invalidIdentifier, field: "textInput.placeholder", "a localization key must not be empty")
        }
        self.buttonTitle = buttonTitle
        self.placeholder = placeholder
    }
}

extension TextInputConfiguration: Codable {
    private enum CodingKeys: String, CodingKey { case buttonTitle, placeholder }

    /// Missing keys are empty; the result is validated.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            buttonTitle: container.decodeIfPresent(LocalizableText.self, forKey: .buttonTitle) ?? .empty,
            placeholder: container.decodeIfPresent(LocalizableText.self, forKey: .placeholder) ?? .empty)
    }
}
