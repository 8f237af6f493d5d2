-- Again: another move with a different checker; the moves scripts offer count.
function play(ctx)
  local moved = ctx:moved()
  local filter = moved and { exclude = { moved.now } } or {}
  if ctx:count_moves(filter) == 0 then
    ctx:log("Again: no other checker can move")
    return
  end
  ctx:play_move(ctx:ask_move_where("Again: which move?", filter), filter)
end
