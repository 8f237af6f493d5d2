-- Flight (R8.13): you may slide one of your kings or emperors any distance in
-- one of the eight directions over empty squares; walls block (R5).
function play(ctx)
  -- A checker that can take one step can slide.
  local movers = ctx:checker_squares{ owner = ctx:player(), kind = "crowned", hippo = false, can_step = "all" }
  if #movers == 0 then
    ctx:log("Flight: no king or emperor of {user}'s can fly")
    return
  end
  local from = ctx:ask_checker("Flight: which king or emperor flies? (none: no flight)", movers, { optional = true })
  if not from then return end
  local to = ctx:ask_square("Flight: to which square?", ctx:slide_targets(from, "all"))
  ctx:relocate(from, to)
end
