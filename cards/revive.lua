-- Revive (R8.4): you may put one piece of your reserve on an empty main-colour
-- (dark) square of your half as a pawn. It counts toward Earth (R9.2).
function play(ctx)
  local me = ctx:player()
  if ctx:reserve(me) == 0 then
    ctx:log("Revive: {user}'s reserve is empty; nothing happens")
    return
  end
  local spots = { empty = true, colour = "dark", half = me }
  if ctx:count_squares(spots) == 0 then
    ctx:log("Revive: no empty dark square in {user}'s half; nothing happens")
    return
  end
  -- "You may" (R8.0): answering none declines.
  local sq = ctx:ask_square_where("Revive: on which square does the pawn come back?", spots, { optional = true })
  if sq == nil then return end
  ctx:place_from_reserve(sq)
  ctx:add_counter(me, "pawns_revived", 1)
end
