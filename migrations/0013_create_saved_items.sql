-- Saved avatars and saved QR codes (docs/decisions/047-saved-items.md): the inputs of what the
-- live demo produced, kept with the account so the lists follow it across devices. The image
-- is never stored; it is drawn again from `input` by the API's own engine when asked for.
CREATE TABLE saved_items (
  id TEXT PRIMARY KEY,                      -- svd_<random>
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  list TEXT NOT NULL CHECK (list IN ('avatars', 'qrcodes')),
  -- 1, 2, 3, … in the order saved ("save appends"); unique so two saves can never share a place.
  position INTEGER NOT NULL,
  operation_id TEXT NOT NULL,               -- the hosted operation that draws it: createAvatar, getAvatar, createQrCode
  input TEXT NOT NULL,                      -- JSON, as sent and as the operation's schema accepted it
  created_at INTEGER NOT NULL,
  UNIQUE (user_id, list, position)
);
